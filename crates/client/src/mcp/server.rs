//! The MCP server handler (rmcp's `ServerHandler`): initialize answers with the server's
//! instructions and capabilities (tools, resources, prompts); tools, resources and the prompt
//! come from `tools` and `resources`.

use super::resources;
use super::tools::{self, Ctx};
use rmcp::ErrorData as McpError;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, ListPromptsResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, Prompt, PromptArgument, PromptMessage, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Role, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use std::sync::Arc;

/// One connection's handler (cheap to clone: the context is shared).
#[derive(Clone)]
pub struct ColonyServer {
    ctx: Arc<Ctx>,
}

impl ColonyServer {
    pub fn new(ctx: Arc<Ctx>) -> ColonyServer {
        ColonyServer { ctx }
    }
}

fn play_turn_prompt() -> Prompt {
    Prompt::new(
        "play_turn",
        Some(
            "Play one turn of Colony: the goal, the turn, and the basics of keeping a colony alive",
        ),
        Some(vec![
            PromptArgument::new("goal")
                .with_description("the objective (default: the goal set in the game)")
                .with_required(false),
            PromptArgument::new("turn")
                .with_description("the turn number")
                .with_required(false),
        ]),
    )
}

impl ServerHandler for ColonyServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(
            Implementation::new("colony", env!("CARGO_PKG_VERSION")).with_title("Colony"),
        )
        .with_instructions(resources::instructions(&self.ctx.profile))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools::of_profile(
            &self.ctx.profile,
        )))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::get(name).filter(|_| self.ctx.profile.has(name))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.unwrap_or_default();
        let start = std::time::Instant::now();
        let sent = self.ctx.record.as_ref().map(|_| args.clone());
        let result = tools::call(&self.ctx, &request.name, args).await;
        if let (Some(r), Some(sent)) = (&self.ctx.record, &sent) {
            r.call(&request.name, sent, result.as_ref(), start);
        }
        match result {
            Some(result) => Ok(result.into()),
            None => Err(McpError::invalid_params(
                format!(
                    "unknown tool {:?}; tools/list names the tools",
                    request.name
                ),
                None,
            )),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(resources::list()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        match resources::read(&self.ctx.api, &request.uri).await {
            Ok(Some(contents)) => Ok(ReadResourceResult::new(vec![contents]).into()),
            Ok(None) => Err(McpError::resource_not_found(
                format!("no resource {:?}; resources/list names them", request.uri),
                None,
            )),
            Err(f) => Err(McpError::internal_error(f.message, None)),
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(ListPromptsResult::with_all_items(vec![play_turn_prompt()]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        if request.name != "play_turn" {
            return Err(McpError::invalid_params(
                format!("no prompt {:?}; the prompt is play_turn", request.name),
                None,
            ));
        }
        let args = request.arguments.unwrap_or_default();
        let arg = |k: &str| {
            args.get(k).map(|v| match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            })
        };
        let (faction, game_goal) = resources::game_facts(&self.ctx.api).await;
        let goal = arg("goal").or(game_goal);
        let text = resources::play_turn(
            goal.as_deref(),
            arg("turn").as_deref(),
            faction.as_deref().unwrap_or("Folktails"),
            &self.ctx.profile,
        );
        Ok(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                .with_description("One turn of Colony")
                .into(),
        )
    }
}
