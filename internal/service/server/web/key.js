// The key of a server that needs one (docs/security.md). It is asked once, kept for this
// tab only (sessionStorage: gone when the tab closes, never sent to another origin), and
// sent as "Authorization: Bearer KEY", never in a URL. On a page the server locked (the
// 401 answer to a browser that navigates to a document, which sends no key), it fetches
// the page with the key and shows it.
"use strict";

window.qscKey = (function () {
  const name = "qsc-key";
  let dialog = null;

  function get() {
    try {
      return sessionStorage.getItem(name) || "";
    } catch (e) {
      return "";
    }
  }

  function set(key) {
    try {
      if (key) {
        sessionStorage.setItem(name, key);
      } else {
        sessionStorage.removeItem(name);
      }
    } catch (e) {
      // storage refused (a private window may refuse it): the key lives in no storage
    }
  }

  // headers returns the headers h with the key's Authorization, when there is a key.
  function headers(h) {
    const out = Object.assign({}, h || {});
    const key = get();
    if (key) {
      out.Authorization = "Bearer " + key;
    }
    return out;
  }

  // build makes the key dialog, once.
  function build() {
    dialog = document.createElement("dialog");
    dialog.id = "key-dialog";
    dialog.setAttribute("aria-labelledby", "key-title");
    const form = document.createElement("form");
    form.method = "dialog";
    form.id = "key-form";
    const title = document.createElement("h2");
    title.id = "key-title";
    title.textContent = "This server needs a key";
    const msg = document.createElement("p");
    msg.id = "key-message";
    const label = document.createElement("label");
    label.htmlFor = "key";
    label.textContent = "Key";
    const row = document.createElement("div");
    row.className = "row";
    const input = document.createElement("input");
    input.id = "key";
    input.name = "key";
    input.type = "password";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.required = true;
    const button = document.createElement("button");
    button.type = "submit";
    button.textContent = "Use key";
    row.append(input, button);
    const note = document.createElement("p");
    note.className = "note";
    note.textContent = "Kept in this tab only, until you close it.";
    form.append(title, msg, label, row, note);
    dialog.append(form);
    // Without a key there is nothing to show: Escape does not close the dialog.
    dialog.addEventListener("cancel", function (ev) {
      ev.preventDefault();
    });
    document.body.append(dialog);
  }

  // ask shows the key dialog with message and resolves once a key is entered.
  function ask(message) {
    if (!dialog) {
      build();
    }
    document.getElementById("key-message").textContent = message;
    const input = document.getElementById("key");
    input.value = "";
    return new Promise(function (resolve) {
      dialog.addEventListener("close", function onClose() {
        const key = input.value.trim();
        if (!key) {
          dialog.showModal();
          return;
        }
        dialog.removeEventListener("close", onClose);
        set(key);
        resolve(key);
      });
      dialog.showModal();
      input.focus();
    });
  }

  // authFetch is fetch with the key. On 401 (no key, or an unknown one) or 403 (a key
  // whose scope does not reach url) it asks for a key and tries again.
  async function authFetch(url, opts) {
    opts = opts || {};
    for (;;) {
      const resp = await fetch(url, Object.assign({}, opts, { headers: headers(opts.headers) }));
      if (resp.status !== 401 && resp.status !== 403) {
        return resp;
      }
      const had = get();
      set("");
      let message = "Enter the key you were given to read this collection.";
      if (resp.status === 403) {
        message = "That key may not do this. Enter a key for searching.";
      } else if (had) {
        message = "That key was not accepted. Enter it again, or another.";
      }
      await ask(message);
    }
  }

  // unlock shows a locked page: it fetches the page with the key and puts its title and
  // body in place of the shell's.
  async function unlock() {
    const status = document.getElementById("locked-status");
    try {
      const resp = await authFetch(location.href, { headers: { Accept: "text/html" } });
      const text = await resp.text();
      if (!resp.ok || !(resp.headers.get("Content-Type") || "").startsWith("text/html")) {
        let msg = "Error " + resp.status;
        try {
          msg = JSON.parse(text).error || msg;
        } catch (e) {
          // not JSON
        }
        status.textContent = msg;
        status.classList.add("error");
        return;
      }
      const doc = new DOMParser().parseFromString(text, "text/html");
      document.title = doc.title;
      document.body.replaceWith(document.adoptNode(doc.body));
    } catch (err) {
      status.textContent = "Loading the page failed: " + err.message;
      status.classList.add("error");
    }
  }

  if (document.body && document.body.dataset.locked) {
    unlock();
  }

  return { get: get, headers: headers, fetch: authFetch, ask: ask };
})();
