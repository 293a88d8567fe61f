/**
 * The report page's script (inline, no library): reads the embedded JSON and runs the conversation browser —
 * filters by toolset, verdict and text, a list rendered in pages of 200, and the chat of the selected episode
 * built with DOM calls and `textContent` only (no data ever goes through HTML parsing).
 */
export const REPORT_SCRIPT = String.raw`
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var episodes = data.episodes;
  var byIndex = {};
  episodes.forEach(function (e) { byIndex[e.index] = e; });
  var listEl = document.getElementById("episode-list");
  var countEl = document.getElementById("list-count");
  var chatEl = document.getElementById("chat");
  var moreBtn = document.getElementById("list-more");
  var tsSel = document.getElementById("filter-toolset");
  var vSel = document.getElementById("filter-verdict");
  var qIn = document.getElementById("filter-text");
  var PAGE = 200;
  var shown = 0;
  var filtered = [];
  var selected = null;

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = text;
    return n;
  }
  function option(value, label) {
    var o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    return o;
  }
  function firstText(e) {
    for (var i = 0; i < e.turns.length; i++) if (e.turns[i].k === "user") return e.turns[i].text;
    return "";
  }
  function snippet(text, n) {
    return text.length > n ? text.slice(0, n - 1) + "\u2026" : text;
  }
  function verdictLabel(e) {
    if (e.outcome === "rejected") return "rejected \u00b7 " + e.failedStage;
    return e.outcome;
  }

  // Filters: the run's toolsets, and the verdicts and failed stages present.
  var toolsets = data.run.toolsets.slice();
  episodes.forEach(function (e) { e.toolsets.forEach(function (t) { if (toolsets.indexOf(t) < 0) toolsets.push(t); }); });
  toolsets.forEach(function (t) { tsSel.appendChild(option(t, t)); });
  var stages = [];
  episodes.forEach(function (e) { if (e.outcome === "rejected" && e.failedStage && stages.indexOf(e.failedStage) < 0) stages.push(e.failedStage); });
  [["accepted", "accepted"], ["rejected", "rejected (any stage)"]].forEach(function (p) { vSel.appendChild(option(p[0], p[1])); });
  stages.forEach(function (s) { vSel.appendChild(option("rejected:" + s, "rejected at " + s)); });
  vSel.appendChild(option("error", "error (no verdict)"));

  function matches(e) {
    var ts = tsSel.value, v = vSel.value, q = qIn.value.trim().toLowerCase();
    if (ts && e.toolsets.indexOf(ts) < 0) return false;
    if (v === "accepted" || v === "rejected" || v === "error") { if (e.outcome !== v) return false; }
    else if (v.indexOf("rejected:") === 0) { if (e.outcome !== "rejected" || e.failedStage !== v.slice(9)) return false; }
    if (q && firstText(e).toLowerCase().indexOf(q) < 0 && e.id.toLowerCase().indexOf(q) < 0) return false;
    return true;
  }

  function item(e) {
    var b = el("button", "episode " + e.outcome);
    b.type = "button";
    b.setAttribute("data-index", String(e.index));
    var head = el("div", "episode-head");
    head.appendChild(el("span", "episode-index", "#" + e.index));
    head.appendChild(el("span", "badge " + e.outcome, verdictLabel(e)));
    head.appendChild(el("span", "episode-toolsets", e.toolsets.join(", ")));
    b.appendChild(head);
    b.appendChild(el("div", "episode-text", snippet(firstText(e), 150)));
    if (selected === e.index) b.classList.add("selected");
    b.addEventListener("click", function () { select(e.index, true); });
    return b;
  }

  function more() {
    var frag = document.createDocumentFragment();
    var end = Math.min(filtered.length, shown + PAGE);
    for (var i = shown; i < end; i++) frag.appendChild(item(filtered[i]));
    shown = end;
    listEl.appendChild(frag);
    moreBtn.hidden = shown >= filtered.length;
    moreBtn.textContent = "show " + Math.min(PAGE, filtered.length - shown) + " more";
  }

  function renderList() {
    filtered = episodes.filter(matches);
    listEl.textContent = "";
    shown = 0;
    more();
    countEl.textContent = filtered.length + " of " + episodes.length + " episodes";
    if (filtered.length === 0) listEl.appendChild(el("p", "empty", "No episode matches the filters."));
  }

  function pre(cls, text) {
    var p = el("pre", cls);
    p.textContent = text;
    return p;
  }

  function renderChat(e) {
    chatEl.textContent = "";
    var head = el("div", "chat-head");
    head.appendChild(el("h3", "chat-title", "Episode #" + e.index + " \u00b7 " + e.id));
    var meta = el("div", "chat-meta");
    meta.appendChild(el("span", "badge " + e.outcome, verdictLabel(e)));
    meta.appendChild(el("span", null, "toolsets: " + e.toolsets.join(", ")));
    meta.appendChild(el("span", null, "level " + e.level));
    meta.appendChild(el("span", null, e.steps + " steps, " + e.calls + " calls"));
    head.appendChild(meta);
    chatEl.appendChild(head);
    var log = el("div", "chat-log");
    e.turns.forEach(function (t) {
      var m;
      if (t.k === "user") {
        m = el("div", "msg user");
        m.appendChild(el("div", "who", t.reply ? "user (reply)" : "user"));
        m.appendChild(el("div", "text", t.text));
      } else if (t.k === "thought") {
        m = el("div", "msg thought");
        m.appendChild(el("div", "who", "assistant thought"));
        m.appendChild(el("div", "text", t.text));
      } else if (t.k === "call") {
        m = el("div", "msg tool-call");
        var line = el("div", "who");
        line.appendChild(el("span", null, "tool call \u2192 "));
        line.appendChild(el("span", "name", t.name));
        line.appendChild(el("span", "call-id", " (" + t.id + ")"));
        m.appendChild(line);
        m.appendChild(pre("args", t.args));
      } else if (t.k === "obs") {
        m = el("details", "msg observation" + (t.status !== null && t.status >= 400 ? " failed" : ""));
        var s = el("summary", null, "observation \u2190 " + t.name + (t.status !== null ? " \u00b7 " + t.status : "") + (t.source ? " \u00b7 " + t.source : ""));
        m.appendChild(s);
        m.appendChild(pre("json", t.body));
      } else {
        m = el("div", "msg assistant " + t.kind);
        m.appendChild(el("div", "who", t.kind === "final" ? "assistant (final answer)" : t.kind === "question" ? "assistant (question)" : "assistant (gave up)"));
        m.appendChild(el("div", "text", t.text));
      }
      log.appendChild(m);
    });
    chatEl.appendChild(log);
    var v = el("div", "verdict " + e.outcome);
    v.appendChild(el("h4", null, e.outcome === "accepted" ? "Verdict: accepted" : e.outcome === "rejected" ? "Verdict: rejected at " + e.failedStage : "No verdict: the episode broke off"));
    if (e.outcome === "error") {
      var ul0 = el("ul", "reasons");
      e.reasons.forEach(function (r) { ul0.appendChild(el("li", "reason", r)); });
      v.appendChild(ul0);
    }
    var stagesEl = el("ul", "stages");
    e.stages.forEach(function (st) {
      var li = el("li", "stage " + (st.pass ? "pass" : "fail"));
      li.appendChild(el("span", "mark", st.pass ? "\u2713" : "\u2717"));
      li.appendChild(el("strong", null, st.stage));
      if (st.reasons.length > 0) {
        var ul = el("ul", "reasons");
        st.reasons.forEach(function (r) { ul.appendChild(el("li", "reason", r)); });
        li.appendChild(ul);
      }
      stagesEl.appendChild(li);
    });
    v.appendChild(stagesEl);
    chatEl.appendChild(v);
    chatEl.scrollTop = 0;
  }

  function select(index, remember) {
    var e = byIndex[index];
    if (!e) return;
    selected = index;
    var old = listEl.querySelectorAll(".episode.selected");
    for (var i = 0; i < old.length; i++) old[i].classList.remove("selected");
    var cur = listEl.querySelector('[data-index="' + index + '"]');
    if (cur) cur.classList.add("selected");
    renderChat(e);
    if (remember && window.history && window.history.replaceState) window.history.replaceState(null, "", "#ep-" + index);
  }

  var timer = null;
  tsSel.addEventListener("change", renderList);
  vSel.addEventListener("change", renderList);
  qIn.addEventListener("input", function () {
    if (timer) clearTimeout(timer);
    timer = setTimeout(renderList, 150);
  });
  moreBtn.addEventListener("click", more);
  renderList();
  var m = /^#ep-(\d+)$/.exec(window.location.hash);
  if (m) select(Number(m[1]), false);
})();
`;
