/* The pit dashboard's charts: Chart.js, redrawn from the JSON each htmx poll brings (#chart-data).
   Both charts have one basis, as the tiles: the rounds win and the statistical hold (rounds win ÷ handle). */
(() => {
  "use strict";

  const charts = {};
  // Django's JavaScript catalog (/jsi18n/, loaded first): the words in the reader's language
  const gettext = window.gettext || ((t) => t);
  const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, k) => String(values[k]));
  const WIN = "#0b5d4b";
  const HOLD = "#c07a00";

  function readData() {
    const el = document.getElementById("chart-data");
    return el ? JSON.parse(el.textContent) : { by_hour: [], by_table: [] };
  }

  let unit = 100;
  let currency = "";
  const toUnits = (minor) => minor / unit;

  function config(labels, win, hold) {
    return {
      type: "bar",
      data: {
        labels,
        datasets: [
          { type: "bar", label: fmt(gettext("Rounds win (%(currency)s)"), { currency }), data: win, backgroundColor: WIN, yAxisID: "y" },
          { type: "line", label: gettext("Statistical hold % (rounds win ÷ handle)"), data: hold, borderColor: HOLD, backgroundColor: HOLD, yAxisID: "y1", spanGaps: true, tension: 0.2 },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: "index", intersect: false },
        scales: {
          y: { position: "left", title: { display: true, text: fmt(gettext("Rounds win (%(currency)s)"), { currency }) } },
          y1: { position: "right", title: { display: true, text: gettext("Statistical hold %") }, grid: { drawOnChartArea: false } },
        },
      },
    };
  }

  function upsert(id, labels, win, hold) {
    const canvas = document.getElementById(id);
    if (!canvas || !window.Chart) return;
    const chart = charts[id];
    if (!chart) {
      charts[id] = new window.Chart(canvas, config(labels, win, hold));
      return;
    }
    chart.data.labels = labels;
    chart.data.datasets[0].data = win;
    chart.data.datasets[1].data = hold;
    chart.update("none");
  }

  function draw() {
    const d = readData();
    unit = 10 ** (d.digits === undefined ? 2 : d.digits);
    currency = d.currency || "";
    upsert("chart-hour", d.by_hour.map((r) => r.hour), d.by_hour.map((r) => toUnits(r.win)), d.by_hour.map((r) => r.hold_pct));
    upsert("chart-table", d.by_table.map((r) => r.table), d.by_table.map((r) => toUnits(r.win)), d.by_table.map((r) => r.hold_pct));
    document.body.dataset.chartsDrawn = String(Number(document.body.dataset.chartsDrawn || 0) + 1);
  }

  // The live part's refresh asks "changed since this?" (its ETag, If-None-Match): a 304 means nothing did, and
  // the part stays as it is (htmx would otherwise swap the empty answer in); only its "updated" time moves on.
  document.body.addEventListener("htmx:configRequest", (e) => {
    const live = e.detail.elt;
    if (live && live.id === "live" && live.dataset.etag) e.detail.headers["If-None-Match"] = live.dataset.etag;
  });
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    if (!e.detail.xhr || e.detail.xhr.status !== 304) return;
    e.detail.shouldSwap = false;
    e.detail.isError = false;
    const stamp = document.getElementById("updated-at");
    if (!stamp) return;
    let time;
    try {
      time = new Intl.DateTimeFormat("en-GB", { timeZone: stamp.dataset.timeZone || undefined, hour: "2-digit",
        minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(new Date());
    } catch (err) {
      time = new Date().toTimeString().slice(0, 8);
    }
    stamp.textContent = stamp.textContent.replace(/\d{1,2}:\d{2}:\d{2}/, time);
    document.body.dataset.liveUnchanged = String(Number(document.body.dataset.liveUnchanged || 0) + 1);
  });

  document.body.addEventListener("htmx:afterSettle", draw);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw);
  else draw();
})();
