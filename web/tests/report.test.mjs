// `colony eval`'s report.html in Chromium: a real evaluation (the random baseline on a short
// scenario, two seeds, each its own colonyd; the agent crashes on every turn of seed 8, so that
// episode is invalid) is run with the real `colony` binary, then the page is opened from disk and
// what it draws is checked against results.json: the version stamp, the scores with the invalid
// episode counted apart, the achievements, and per episode its status, score by term, deaths by
// cause, plots (axes with tick labels, one scale for the scenario's episodes) and the strip of
// map pictures with the replay command.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, COLONY, COLONYD, browser, screenshot, shortScenario } from "./support.mjs";

let dir, results, b;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "colony-report-"));
  const scenario = shortScenario(dir, { id: "report-short", title: "Three short days", days: 3 });
  // Seed 8's agent exits 3 on every turn: that episode is invalid (--allow-invalid: exit 0).
  const agent = `sh -c 'case "$COLONY_EPISODE" in *-s8) exit 3;; esac; exec python3 ${path.join(ROOT, "agents/random_agent.py")}'`;
  execFileSync(COLONY, [
    "eval", "--scenario", scenario, "--agent", agent, "--allow-invalid",
    "--seeds", "7,8", "--parallel", "2", "--out", path.join(dir, "out"), "--colonyd", COLONYD, "--quiet",
  ], { stdio: ["ignore", "inherit", "inherit"], timeout: 300000 });
  results = JSON.parse(fs.readFileSync(path.join(dir, "out/results.json"), "utf8"));
  b = await browser({ width: 1280, height: 1400 });
});

after(async () => {
  await b?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("report.html draws the scores, the achievements and each episode's history from results.json", async () => {
  const { page } = b;
  const consoleErrors = [];
  const fetched = [];
  page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
  page.on("request", (r) => { if (!r.url().startsWith("file:")) fetched.push(r.url()); });
  await page.goto(pathToFileURL(path.join(dir, "out/report.html")).href);
  assert.equal(results.episodesPlayed, 2);
  assert.deepEqual(results.episodes.map((e) => e.status), ["ok", "invalid"]);

  // The version stamp in the header line.
  const v = await page.$eval("#version", (p) => ({ ...p.dataset, text: p.textContent }));
  assert.equal(v.colony, results.version.colony);
  assert.equal(v.commit, results.version.commit ?? "unknown");
  assert.equal(Number(v.rulesRevision), results.version.rulesRevision);
  assert.equal(v.rulesDigest, results.version.rulesDigest);
  assert.equal(v.split, results.split);
  assert.match(v.text, new RegExp(`colony ${results.version.colony} .*rules revision ${results.version.rulesRevision}.*split custom.*--allow-invalid`));
  const files = await page.$$eval("#scenario-files span[data-scenario]", (ss) => Object.fromEntries(ss.map((s) => [s.dataset.scenario, s.dataset.digest])));
  assert.deepEqual(files, results.version.scenarios);

  // The overall score and the scores table.
  assert.equal(Number(await page.getAttribute("#overall", "data-score")), results.score);
  const row = await page.$eval("#scores tr[data-scenario='report-short']", (tr) => ({
    mean: Number(tr.dataset.mean), success: Number(tr.dataset.success), text: tr.textContent,
  }));
  const s = results.scenarios["report-short"];
  assert.equal(row.mean, s.meanScore);
  assert.equal(row.success, s.successRate);
  assert.match(row.text, new RegExp(s.meanScore.toFixed(1).replace(".", "\\.")));
  // The invalid episode is counted apart, in red.
  const apart = await page.$eval("#scores tr[data-scenario='report-short']", (tr) => ({
    invalid: Number(tr.dataset.invalid), tampered: Number(tr.dataset.tampered), errors: Number(tr.dataset.errors),
    red: getComputedStyle(tr.querySelector("td.bad")).color,
  }));
  assert.deepEqual([apart.invalid, apart.tampered, apart.errors], [s.invalidEpisodes, s.tamperedEpisodes, 0]);
  assert.deepEqual([s.invalidEpisodes, s.tamperedEpisodes], [1, 0]);
  assert.ok(isRed(apart.red), apart.red);

  // One grid row per achievement, each overall cell with the run's rate.
  const cells = await page.$$eval("#achievements tr[data-achievement]", (rows) => rows.map((r) => ({
    id: r.dataset.achievement, all: Number(r.querySelector("td[data-scenario='all']").dataset.rate),
  })));
  assert.equal(cells.length, Object.keys(results.achievements).length);
  for (const c of cells) assert.equal(c.all, results.achievements[c.id], c.id);

  // Per episode: three plots (population; food and water; wellbeing) of four lines; each line
  // ends at the episode's final numbers.
  const drawn = {};
  for (const e of results.episodes) {
    const sel = `section.episode[data-episode='${e.id}']`;
    const lines = await page.$$eval(`${sel} polyline`, (ps) => ps.map((p) => ({
      series: p.dataset.series, points: Number(p.dataset.points), last: Number(p.dataset.last),
      drawn: p.getAttribute("points").trim().split(/\s+/).map((xy) => xy.split(",").map(Number)),
    })));
    assert.deepEqual(lines.map((l) => l.series), ["population", "foodDays", "waterDays", "wellbeing"]);
    const pop = lines[0];
    assert.equal(pop.last, e.metrics.population, `${e.id} population`);
    assert.equal(pop.drawn.length, pop.points);
    // Three days of hourly rows (72), drawn whole.
    assert.equal(pop.points, 72, `${e.id} rows`);
    assert.equal(lines[2].last, Math.max(0, e.metrics.water_days), `${e.id} water days`);

    // Every chart has both axes, each with its title and tick labels (numbers, in order, within
    // the axis' range), and every point of its lines inside the plot area.
    const charts = await page.$$eval(`${sel} svg[data-chart]`, (svgs) => svgs.map((svg) => {
      const axis = (cls) => {
        const g = svg.querySelector(`g.axis.${cls}`);
        const dom = g.querySelector("line.domain");
        return {
          min: Number(g.dataset.min), max: Number(g.dataset.max),
          label: g.querySelector("text.axis-label")?.textContent ?? "",
          ticks: [...g.querySelectorAll("g.tick")].map((t) => ({ value: Number(t.dataset.value), text: t.querySelector("text").textContent })),
          box: ["x1", "x2", "y1", "y2"].map((k) => Number(dom.getAttribute(k))),
        };
      };
      return {
        key: svg.dataset.chart,
        range: ["xMin", "xMax", "yMin", "yMax"].map((k) => Number(svg.dataset[k])),
        x: axis("x"), y: axis("y"),
        series: [...svg.querySelectorAll("polyline")].map((p) => p.dataset.series),
        hazards: svg.querySelectorAll("rect.hazard").length,
      };
    }));
    assert.deepEqual(charts.map((c) => [c.key, c.series]), [
      ["population", ["population"]], ["stores", ["foodDays", "waterDays"]], ["wellbeing", ["wellbeing"]],
    ]);
    for (const c of charts) {
      assert.match(c.x.label, /game day/, `${e.id} ${c.key} x title`);
      assert.match(c.y.label, { population: /population/, stores: /days of food \/ water/, wellbeing: /wellbeing/ }[c.key]);
      for (const a of [c.x, c.y]) {
        assert.ok(a.ticks.length >= 3, `${e.id} ${c.key}: ${a.ticks.length} ticks`);
        for (const t of a.ticks) {
          assert.equal(Number(t.text), t.value, `${e.id} ${c.key} tick label ${t.text}`);
          assert.ok(t.value >= a.min - 1e-9 && t.value <= a.max + 1e-9, `${e.id} ${c.key} tick ${t.value}`);
        }
        assert.deepEqual(a.ticks.map((t) => t.value), [...a.ticks.map((t) => t.value)].sort((p, q) => p - q));
        assert.equal(a.ticks[0].value, a.min);
        assert.equal(a.ticks.at(-1).value, a.max);
      }
      assert.deepEqual(c.range, [c.x.min, c.x.max, c.y.min, c.y.max]);
      assert.equal(c.x.min, 0, "x from the start");
      assert.ok(c.x.max >= 72 / 24 - 1e-9, `${e.id} x reaches the last hour: ${c.x.max}`);
    }
    const [left, right] = [charts[0].x.box[0], charts[0].x.box[1]];
    const [bottom, top] = [charts[0].y.box[3], charts[0].y.box[2]];
    for (const l of lines) {
      for (const [px, py] of l.drawn) {
        assert.ok(px >= left - 0.1 && px <= right + 0.1 && py >= top - 0.1 && py <= bottom + 0.1,
          `${e.id} ${l.series} point ${px},${py} outside the plot area`);
      }
    }
    drawn[e.id] = charts;

    // Status: ok has no status line; anything else is red with the reason.
    const st = await page.$eval(sel, (sec) => {
      const p = sec.querySelector("p.status");
      return { status: sec.dataset.status, notOk: sec.classList.contains("not-ok"), text: p?.textContent, color: p && getComputedStyle(p).color };
    });
    assert.equal(st.status, e.status);
    if (e.status === "ok") {
      assert.equal(st.text, undefined);
      assert.equal(st.notOk, false);
    } else {
      assert.ok(st.notOk);
      assert.ok(isRed(st.color), st.color);
      assert.match(st.text, new RegExp(`^${e.status}: `));
      if (e.error) assert.ok(st.text.includes(e.error), st.text);
      else assert.match(st.text, new RegExp(`failed on ${e.agentFailures} of ${e.turns} turns`));
    }

    // The score by term, when results.json has it: one row per term, summing to the score.
    const terms = await page.$$eval(`${sel} table.terms tr.term`, (trs) => trs.map((tr) => ({ metric: tr.dataset.metric, points: Number(tr.dataset.points) })));
    if (e.scoreTerms?.length) {
      assert.deepEqual(terms, e.scoreTerms.map((t) => ({ metric: t.metric, points: t.points })));
      const sum = terms.reduce((a, t) => a + t.points, 0);
      assert.ok(Math.abs(sum - e.score) <= 0.001 * (terms.length + 1), `${e.id}: terms sum to ${sum}, score ${e.score}`);
      assert.equal(Number(await page.getAttribute(`${sel} table.terms tr.total`, "data-points")), e.score);
    } else {
      assert.deepEqual(terms, []);
      assert.equal(await page.$(`${sel} .breakdown`), null, "no breakdown without scoreTerms");
    }

    // Deaths by cause over the episode, as the metrics count them.
    const deaths = await page.$eval(`${sel} p.deaths`, (p) => ({
      total: Number(p.dataset.deaths), causes: [...p.querySelectorAll("[data-cause]")].map((s) => [s.dataset.cause, Number(s.dataset.count)]),
    }));
    assert.equal(deaths.total, e.metrics.deaths, `${e.id} deaths`);
    for (const [cause, n] of deaths.causes) assert.equal(n, e.metrics[`deaths_by.${cause}`], `${e.id} ${cause}`);
    assert.equal(deaths.causes.reduce((a, [, n]) => a + n, 0), deaths.total);

    // The map strip: the start and every turn of a six-turn episode (one picture a turn when
    // an episode has six or fewer), the last marked the end; each a 64x64 picture of the 64
    // map, decoded, with the district center's red and more than a few colours; then the
    // command that replays the episode.
    const maps = await page.$$eval(`${sel} .maps figure.map`, (figs) => figs.map((f) => {
      const img = f.querySelector("img");
      const c = document.createElement("canvas");
      c.width = img.naturalWidth; c.height = img.naturalHeight;
      const g = c.getContext("2d");
      g.drawImage(img, 0, 0);
      const px = g.getImageData(0, 0, c.width, c.height).data;
      const colours = new Set();
      let red = 0;
      for (let i = 0; i < px.length; i += 4) {
        colours.add(`${px[i]},${px[i + 1]},${px[i + 2]}`);
        if (px[i] === 196 && px[i + 1] === 24 && px[i + 2] === 32) red++;
      }
      return {
        turn: Number(f.dataset.turn), day: Number(f.dataset.day), label: f.dataset.label,
        caption: f.querySelector("figcaption").textContent, complete: img.complete,
        size: [img.naturalWidth, img.naturalHeight], colours: colours.size, red,
      };
    }));
    assert.deepEqual(maps.map((m) => m.turn), [0, 1, 2, 3, 4, 5, 6], `${e.id} map turns`);
    assert.equal(maps[0].label, "start");
    assert.equal(maps.at(-1).label, "end");
    for (const m of maps) {
      assert.ok(m.complete, `${e.id} turn ${m.turn} decoded`);
      assert.deepEqual(m.size, [64, 64], `${e.id} turn ${m.turn} size`);
      assert.ok(m.red >= 4, `${e.id} turn ${m.turn}: the district center is drawn (${m.red} red pixels)`);
      assert.ok(m.colours >= 6, `${e.id} turn ${m.turn}: ${m.colours} colours`);
      assert.match(m.caption, new RegExp(`^day ${m.day}`));
    }
    assert.equal(await page.$eval(`${sel} p.replay code`, (c) => c.textContent), `colony replay --check episodes/${e.id}`);
  }
  // One scale for the scenario: the same axes, ticks and all, on every episode's chart.
  const [a, bb] = results.episodes.map((e) => drawn[e.id]);
  for (let i = 0; i < a.length; i++) {
    assert.deepEqual(a[i].range, bb[i].range, `${a[i].key} ranges`);
    assert.deepEqual(a[i].y.ticks, bb[i].y.ticks, `${a[i].key} y ticks`);
    assert.deepEqual(a[i].x.ticks, bb[i].x.ticks, `${a[i].key} x ticks`);
  }
  assert.equal(await page.$$eval("script", (ss) => ss.length), 0);
  await screenshot(page, "eval-report");
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(b.errors, []);
  assert.deepEqual(fetched, [], "nothing fetched: the page is self-contained");
});

/** Whether a computed CSS colour is a red (strong red, weak green and blue). */
function isRed(color) {
  const [r, g, bl] = color.match(/\d+/g).map(Number);
  return r >= 150 && g <= 90 && bl <= 90;
}
