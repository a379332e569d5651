//! Refusals raised in Python as the HTTP client raises them: `colony.errors.ColonyError(code,
//! detail, extras)` (a `RuntimeError` with the contract's text when the `colony` package is not
//! importable).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A JSON value as a Python object (through `json.loads`: extras are small).
pub fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(v).expect("a JSON value serializes");
    py.import("json")?.call_method1("loads", (text,))
}

/// The error of a refusal.
pub fn error(py: Python<'_>, e: engine::EnvError) -> PyErr {
    let extras = serde_json::Value::Object(e.extras.clone());
    let made = (|| -> PyResult<PyErr> {
        let class = py.import("colony.errors")?.getattr("ColonyError")?;
        let value = class.call1((e.code, e.detail.as_str(), json_to_py(py, &extras)?))?;
        Ok(PyErr::from_value(value))
    })();
    made.unwrap_or_else(|_| PyRuntimeError::new_err(e.to_string()))
}

/// `Err(ColonyError)` of a sim refusal.
pub fn refused<T>(r: Result<T, sim::CommandError>) -> PyResult<T> {
    r.map_err(|e| Python::attach(|py| error(py, e.into())))
}

/// `Err(ColonyError)` of an environment refusal.
pub fn env_refused<T>(r: Result<T, engine::EnvError>) -> PyResult<T> {
    r.map_err(|e| Python::attach(|py| error(py, e)))
}

/// A refusal as the dict `info["error"]` carries: `{code, detail, **extras}`.
pub fn error_dict<'py>(py: Python<'py>, e: &engine::EnvError) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("code", e.code)?;
    d.set_item("detail", e.detail.as_str())?;
    for (k, v) in &e.extras {
        d.set_item(k, json_to_py(py, v)?)?;
    }
    Ok(d)
}
