// The search page: asks GET /v1/search and shows the snippets. No framework, no build.
"use strict";

(function () {
  const form = document.getElementById("search");
  const q = document.getElementById("q");
  const budget = document.getElementById("budget");
  const budgetValue = document.getElementById("budget-value");
  const ellipsis = document.getElementById("ellipsis");
  const nested = document.getElementById("nested");
  const status = document.getElementById("status");
  const results = document.getElementById("results");
  const pager = document.getElementById("pager");
  const prev = document.getElementById("prev");
  const next = document.getElementById("next");
  const pageInfo = document.getElementById("page-info");
  const pageSize = 10;

  let page = 1; // the page of results shown, from 1

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

  // The languages written right to left, by the codes the server gives (Snippet.lang).
  const rtlLanguages = new Set(["ar", "he", "iw", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug"]);

  // chars counts characters as the budget does (code points).
  function chars(s) {
    return Array.from(s).length;
  }

  function render() {
    if (!last) {
      return;
    }
    // As the results were asked for: without "…", the budget counted the words.
    const useEllipsis = last.budget_counts !== "tokens";
    const items = last.results.map(function (r) {
      const li = document.createElement("li");
      li.className = "result";
      const h2 = document.createElement("h2");
      h2.dir = "auto"; // a title in Arabic or Hebrew reads right to left
      const link = document.createElement("a");
      link.className = "title";
      // The server's page of the whole document, with this search for the way back and
      // the marks, and any extra parameters (the sentence of "in context").
      const docHref = (extra) => r.link + "?" + new URLSearchParams(Object.assign({ q: last.query, page: String(page) }, extra)).toString();
      // A document with an address of its own is linked there, as a search page links
      // its results; the server's page of it stays a link beside it.
      const own = r.url && /^https?:\/\//.test(r.url);
      link.href = own ? r.url : docHref({});
      if (own) {
        link.rel = "noopener noreferrer nofollow";
      }
      // The server escapes the title; its only markup is <mark>.
      link.innerHTML = r.title_html;
      h2.append(link);
      const meta = document.createElement("p");
      meta.className = "meta";
      meta.textContent = r.id + " · score " + r.score.toPrecision(3);
      if (own) {
        const src = document.createElement("a");
        src.className = "server-page";
        src.href = docHref({});
        src.textContent = "the text here, marked";
        meta.append(" · ", src);
      }
      li.append(h2, meta);
      if (r.snippets.length === 0 && !r.error && last.terms.length === 0) {
        return li; // found by patterns alone (hot*): no word to show
      }
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
        // The snippet's language decides its direction: an Arabic snippet that starts on
        // a Latin name ("… HfR) اليوم …") still reads right to left; others go by their
        // first letter.
        item.dir = rtlLanguages.has(s.lang) ? "rtl" : "auto";
        const text = document.createElement("span");
        text.className = "text";
        text.dir = item.dir;
        // The server escapes the document text; its only markup is <mark>.
        // A no-break space keeps each "…" on the line of the word before it.
        text.innerHTML = (useEllipsis ? s.html_ellipsis : s.html).replaceAll(" …", "\u00a0…");
        const n = document.createElement("span");
        n.className = "chars";
        n.dir = "ltr";
        // The count is of what is shown: the budget counts the display, "…" included, or
        // without "…" the words.
        n.textContent = " (" + chars(useEllipsis ? s.ellipsis : s.plain) + " of " + last.budget + " characters)";
        item.dataset.text = s.text;
        item.append(text, n);
        if (s.method === "lead") {
          // Found by its title or a pattern: no sentence holds a query word, so the
          // document's beginning stands in.
          const note = document.createElement("span");
          note.className = "lead";
          note.dir = "ltr"; // isolated from a right-to-left snippet
          note.textContent = " · the lead: no sentence holds a query word";
          item.append(note);
        }
        if (s.sentence && s.sentence.end > s.sentence.start) {
          // The sentence in the whole document, marked and scrolled to.
          const ctx = document.createElement("a");
          ctx.className = "context";
          ctx.dir = "ltr";
          ctx.href = docHref({ s: s.sentence.start + "-" + s.sentence.end }) + "#context";
          ctx.textContent = "in context";
          item.append(" ", ctx);
        }
        ul.append(item);
      }
      li.append(ul);
      return li;
    });
    results.replaceChildren(...items);
    let msg;
    // A query of patterns alone (hot*, /colou?r/) has no terms: it is named as typed.
    const what = last.terms.length > 0 ? last.terms.join(", ") : last.query;
    if (last.results.length === 0 && last.terms.length === 0 && !/[*?\/]/.test(last.query)) {
      // Only common words, in an index made before they were indexed, or marks alone.
      msg = "No searchable words in the query.";
    } else if (last.results.length === 0 && last.total > 0) {
      // A stale link, or documents deleted since: say where the results are.
      msg = "Page " + page + " is past the last page, " + Math.ceil(last.total / last.k) + ", of the " + last.total +
        " documents for " + what + ".";
    } else if (last.results.length === 0) {
      msg = "No document holds " + what + ".";
    } else {
      msg = "Showing " + (last.from + 1) + "–" + (last.from + last.results.length) + " of " + last.total +
        " documents for " + what + ".";
    }
    const pages = Math.max(1, Math.ceil(last.total / last.k));
    pager.hidden = last.total <= last.k;
    prev.disabled = page <= 1;
    next.disabled = last.from + last.results.length >= last.total;
    pageInfo.textContent = page <= pages ? "Page " + page + " of " + pages : pages + " pages";
    msg += " Server " + fmt(last.took_ms) + " ms (search " + fmt(last.search_ms) + ", snippets " + fmt(last.snippets_ms) +
      "), round trip " + fmt(last.rtt) + " ms.";
    setStatus(msg, false);
  }

  // updateURL writes the state in the address: a new history entry when push (a search
  // asked for, a page turned), so that Back returns to the results before; the same entry
  // while the query is typed or the budget moved.
  function updateURL(push) {
    const params = new URLSearchParams();
    if (q.value.trim()) {
      params.set("q", q.value.trim());
    }
    params.set("budget", budget.value);
    if (page > 1) {
      params.set("page", String(page));
    }
    if (!ellipsis.checked) {
      params.set("ellipsis", "0");
    }
    if (nested.checked) {
      params.set("nested", "1");
    }
    const url = "?" + params.toString();
    if (push && url !== location.search) {
      history.pushState(null, "", url);
    } else {
      history.replaceState(null, "", url);
    }
  }

  async function search(push) {
    clearTimeout(timer);
    const text = q.value.trim();
    updateURL(push === true);
    const id = ++seq;
    if (!text) {
      last = null;
      results.replaceChildren();
      pager.hidden = true;
      setStatus("", false);
      return;
    }
    // Shown without "…", the budget counts the words (tokens), and the cuts then drop
    // whole phrases so that the words read as a sentence.
    const url = "/v1/search?q=" + encodeURIComponent(text) + "&budget=" + encodeURIComponent(budget.value) +
      (ellipsis.checked ? "" : "&budget_counts=tokens") +
      "&k=" + pageSize + "&page=" + page + (nested.checked ? "&decoding=nested" : "");
    const t0 = performance.now();
    results.setAttribute("aria-busy", "true");
    try {
      const resp = await qscKey.fetch(url, { headers: { Accept: "application/json" } });
      const body = await resp.json();
      if (id !== seq) {
        return;
      }
      if (!resp.ok) {
        last = null;
        results.replaceChildren();
        pager.hidden = true;
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
    page = 1;
    search(true);
  });
  q.addEventListener("input", function () {
    page = 1;
    later(250);
  });
  function turn(by) {
    page = Math.max(1, page + by);
    search(true).then(function () {
      // The new page's first result takes the focus, as a new page's top would.
      const first = results.querySelector("a");
      if (first) {
        first.focus({ preventScroll: true });
      }
      results.scrollIntoView({ block: "start" });
    });
  }
  prev.addEventListener("click", function () {
    turn(-1);
  });
  next.addEventListener("click", function () {
    turn(1);
  });
  budget.addEventListener("input", function () {
    budgetValue.textContent = budget.value;
    later(150);
  });
  ellipsis.addEventListener("change", function () {
    later(0); // the budget counts what is shown: ask again
  });
  nested.addEventListener("change", function () {
    later(0);
  });

  // Restore the state of a shared link, or of a history entry (Back, Forward):
  // ?q=...&budget=...&page=...&ellipsis=0&nested=1.
  function restore() {
    const params = new URLSearchParams(location.search);
    page = 1;
    if (params.has("page")) {
      const n = parseInt(params.get("page"), 10);
      if (n >= 1 && n <= 1000) {
        page = n;
      }
    }
    if (params.has("budget")) {
      const b = parseInt(params.get("budget"), 10);
      if (b >= +budget.min && b <= +budget.max) {
        budget.value = b;
      }
    }
    budgetValue.textContent = budget.value;
    ellipsis.checked = params.get("ellipsis") !== "0";
    nested.checked = params.get("nested") === "1";
    q.value = params.get("q") || "";
  }
  restore();
  window.addEventListener("popstate", function () {
    restore();
    search();
  });
  // "/" focuses the search box, as on most search pages, unless a field has the focus.
  document.addEventListener("keydown", function (ev) {
    const t = ev.target;
    if (ev.key === "/" && !ev.ctrlKey && !ev.metaKey && !ev.altKey &&
      !(t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t.isContentEditable)) {
      ev.preventDefault();
      q.focus();
      q.select();
    }
  });
  // A server with keys answers this page's own address 401 without one: ask for the key
  // now, before the first search, then search.
  qscKey.fetch("/", { method: "HEAD" }).catch(function () {}).then(function () {
    if (q.value) {
      search();
    }
    q.focus();
  });
})();
