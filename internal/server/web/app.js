// The search page: asks GET /v1/search and shows the snippets. No framework, no build.
"use strict";

(function () {
  const form = document.getElementById("search");
  const q = document.getElementById("q");
  const budget = document.getElementById("budget");
  const budgetValue = document.getElementById("budget-value");
  const ellipsis = document.getElementById("ellipsis");
  const status = document.getElementById("status");
  const results = document.getElementById("results");

  let last = null; // the last answer shown
  let seq = 0; // number of the latest request; older answers are dropped
  let timer = 0;

  function setStatus(text, isError) {
    status.textContent = text;
    status.classList.toggle("error", !!isError);
  }

  function fmt(ms) {
    return ms < 10 ? ms.toFixed(1) : Math.round(ms).toString();
  }

  // chars counts characters as the budget does (code points).
  function chars(s) {
    return Array.from(s).length;
  }

  function render() {
    if (!last) {
      return;
    }
    const useEllipsis = ellipsis.checked;
    const items = last.results.map(function (r) {
      const li = document.createElement("li");
      li.className = "result";
      const h2 = document.createElement("h2");
      h2.textContent = r.title;
      const meta = document.createElement("p");
      meta.className = "meta";
      meta.textContent = r.id + " · score " + r.score.toFixed(3);
      li.append(h2, meta);
      if (r.snippets.length === 0) {
        const p = document.createElement("p");
        p.className = "note";
        p.textContent = r.error || "No sentence holds a query word.";
        li.append(p);
        return li;
      }
      const ul = document.createElement("ul");
      ul.className = "snippets";
      for (const s of r.snippets) {
        const item = document.createElement("li");
        item.className = "snippet";
        const text = document.createElement("span");
        text.className = "text";
        // The server escapes the document text; its only markup is <mark>.
        text.innerHTML = useEllipsis ? s.html_ellipsis : s.html;
        const n = document.createElement("span");
        n.className = "chars";
        // The count is of what is shown: the budget counts the display, "…" included.
        n.textContent = " (" + chars(useEllipsis ? s.ellipsis : s.plain) + " of " + last.budget + " characters)";
        item.dataset.text = s.text;
        item.append(text, n);
        ul.append(item);
      }
      li.append(ul);
      return li;
    });
    results.replaceChildren(...items);
    let msg;
    if (last.terms.length === 0) {
      msg = "No searchable words in the query (only common words like “the”).";
    } else if (last.results.length === 0) {
      msg = "No document holds " + last.terms.join(", ") + ".";
    } else {
      msg = "Showing " + last.results.length + " of " + last.total + " documents for " + last.terms.join(", ") + ".";
    }
    msg += " Server " + fmt(last.took_ms) + " ms (search " + fmt(last.search_ms) + ", snippets " + fmt(last.snippets_ms) +
      "), round trip " + fmt(last.rtt) + " ms.";
    setStatus(msg, false);
  }

  function updateURL() {
    const params = new URLSearchParams();
    if (q.value.trim()) {
      params.set("q", q.value.trim());
    }
    params.set("budget", budget.value);
    if (!ellipsis.checked) {
      params.set("ellipsis", "0");
    }
    history.replaceState(null, "", "?" + params.toString());
  }

  async function search() {
    clearTimeout(timer);
    const text = q.value.trim();
    updateURL();
    const id = ++seq;
    if (!text) {
      last = null;
      results.replaceChildren();
      setStatus("", false);
      return;
    }
    const url = "/v1/search?q=" + encodeURIComponent(text) + "&budget=" + encodeURIComponent(budget.value);
    const t0 = performance.now();
    results.setAttribute("aria-busy", "true");
    try {
      const resp = await fetch(url, { headers: { Accept: "application/json" } });
      const body = await resp.json();
      if (id !== seq) {
        return;
      }
      if (!resp.ok) {
        last = null;
        results.replaceChildren();
        setStatus(body.error || "Error " + resp.status, true);
        return;
      }
      body.rtt = performance.now() - t0;
      last = body;
      render();
    } catch (err) {
      if (id === seq) {
        setStatus("The search failed: " + err.message, true);
      }
    } finally {
      if (id === seq) {
        results.removeAttribute("aria-busy");
      }
    }
  }

  function later(ms) {
    clearTimeout(timer);
    timer = setTimeout(search, ms);
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    search();
  });
  q.addEventListener("input", function () {
    later(250);
  });
  budget.addEventListener("input", function () {
    budgetValue.textContent = budget.value;
    later(150);
  });
  ellipsis.addEventListener("change", function () {
    updateURL();
    render();
  });

  // Restore the state of a shared link: ?q=...&budget=...&ellipsis=0.
  const params = new URLSearchParams(location.search);
  if (params.has("budget")) {
    const b = parseInt(params.get("budget"), 10);
    if (b >= +budget.min && b <= +budget.max) {
      budget.value = b;
    }
  }
  budgetValue.textContent = budget.value;
  ellipsis.checked = params.get("ellipsis") !== "0";
  if (params.get("q")) {
    q.value = params.get("q");
    search();
  }
  q.focus();
})();
