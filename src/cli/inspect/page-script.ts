/**
 * The inspect page's own script (browser JavaScript, kept as text: the project compiles for Node only).
 * It reads the report from the page's JSON block and draws the two charts with uPlot, marking compactions,
 * clears and cache breaks on both. Written without template placeholders so it can live in a plain string.
 */
export const PAGE_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var requests = data.requests;
  var colors = { uncached: "#d9534f", write: "#f0ad4e", read: "#5b9bd5", cost: "#6f42c1", cumulative: "#2e7d32" };
  var markColors = { compact: "#8e24aa", microcompact: "#00897b", snip: "#6d4c41", collapse: "#3949ab", "break": "#c62828" };
  function count(v) { return v == null ? "" : Math.round(v).toLocaleString("en-US"); }
  function dollars(v) { return v == null ? "" : "$" + v.toFixed(4); }
  var x = requests.map(function (r) { return r.index; });
  var input = requests.map(function (r) { return r.inputTokens; });
  var write = requests.map(function (r) { return r.cacheWriteTokens; });
  var read = requests.map(function (r) { return r.cacheReadTokens; });
  var cost = requests.map(function (r) { return r.costUsd; });
  var running = 0;
  var cumulative = requests.map(function (r) { running += r.costUsd; return running; });
  var raw = [x, input, write, read];
  function markers() {
    return {
      hooks: {
        draw: [function (u) {
          var ctx = u.ctx, top = u.bbox.top, height = u.bbox.height;
          ctx.save();
          ctx.lineWidth = 2 * devicePixelRatio;
          ctx.font = (11 * devicePixelRatio) + "px sans-serif";
          data.events.forEach(function (event) {
            var px = u.valToPos(event.beforeRequest - 0.5, "x", true);
            if (px < u.bbox.left - 1 || px > u.bbox.left + u.bbox.width + 1) return;
            ctx.strokeStyle = ctx.fillStyle = markColors[event.kind] || "#444";
            ctx.setLineDash(event.kind === "break" ? [] : [6 * devicePixelRatio, 4 * devicePixelRatio]);
            ctx.beginPath(); ctx.moveTo(px, top); ctx.lineTo(px, top + height); ctx.stroke();
            ctx.fillText(event.kind === "break" ? "break" : event.kind, px + 3 * devicePixelRatio, top + 12 * devicePixelRatio);
          });
          ctx.restore();
        }],
      },
    };
  }
  function width(id) { return Math.max(320, document.getElementById(id).clientWidth); }
  var bars = uPlot.paths.bars({ size: [0.75, 48] });
  // Amounts start at zero, so a bar's height is its size.
  function fromZero(u, min, max) { return [0, max > 0 ? max * 1.08 : 1]; }
  var xAxis = { label: "request", values: function (u, ticks) { return ticks.map(function (t) { return Number.isInteger(t) ? String(t) : ""; }); } };
  function stack(label, values, color, own) {
    return { label: label, fill: color, stroke: color, paths: bars, points: { show: false },
      value: function (u, v, si, i) { return i == null ? "" : count(raw[own][i]); } };
  }
  // Stacked by drawing running sums, largest first: each later series paints over the one below it.
  var total = x.map(function (_, i) { return input[i] + write[i] + read[i]; });
  var writeAndRead = x.map(function (_, i) { return write[i] + read[i]; });
  if (x.length > 0) {
    new uPlot({
      width: width("context-chart"), height: 280, plugins: [markers()],
      scales: { x: { time: false, range: function (u, min, max) { return [min - 0.6, max + 0.6]; } }, y: { range: fromZero } },
      axes: [xAxis, { label: "tokens in the request", size: 70, values: function (u, t) { return t.map(count); } }],
      series: [{ label: "request" }, stack("uncached input", total, colors.uncached, 1),
        stack("cache write", writeAndRead, colors.write, 2), stack("cache read", read, colors.read, 3)],
    }, [x, total, writeAndRead, read], document.getElementById("context-chart"));
    new uPlot({
      width: width("cost-chart"), height: 240, plugins: [markers()],
      scales: { x: { time: false, range: function (u, min, max) { return [min - 0.6, max + 0.6]; } }, y: { range: fromZero }, total: { range: fromZero } },
      axes: [xAxis, { label: "cost of the request", size: 70, values: function (u, t) { return t.map(function (v) { return "$" + v.toFixed(3); }); } },
        { scale: "total", side: 1, label: "cumulative cost", size: 70, grid: { show: false }, values: function (u, t) { return t.map(function (v) { return "$" + v.toFixed(2); }); } }],
      series: [{ label: "request" },
        { label: "cost", fill: colors.cost + "99", stroke: colors.cost, paths: bars, points: { show: false }, value: function (u, v) { return dollars(v); } },
        { label: "cumulative", scale: "total", stroke: colors.cumulative, width: 2, value: function (u, v) { return dollars(v); } }],
    }, [x, cost, cumulative], document.getElementById("cost-chart"));
  }
  document.body.setAttribute("data-rendered", "true");
})();
`;
