// Shows the test form's response inside the page. The form works without this script: the browser
// then shows the response itself. Everything received is inserted as text, never as markup.
(function () {
  "use strict";
  var form = document.getElementById("tryit");
  var result = document.getElementById("tryit-result");
  if (!form || !result || !window.fetch || !window.URLSearchParams || !window.DOMParser) {
    return;
  }
  function el(name, text, className) {
    var e = document.createElement(name);
    if (text !== undefined) e.textContent = text;
    if (className) e.className = className;
    return e;
  }
  // fieldRows turns a result document into name/value rows: a Contact's fields, or the one value of
  // a string or int result. Repeated children (RoleIds) are joined by commas.
  function fieldRows(doc) {
    var root = doc.documentElement;
    if (!root || root.getElementsByTagName("parsererror").length) return [];
    var kids = root.children;
    if (!kids.length) return [[root.localName, root.textContent]];
    var rows = [];
    for (var i = 0; i < kids.length; i++) {
      var k = kids[i];
      var parts = [];
      for (var j = 0; j < k.children.length; j++) parts.push(k.children[j].textContent);
      rows.push([k.localName, k.children.length ? parts.join(", ") : k.textContent]);
    }
    return rows;
  }
  // jsonRows turns the JSON endpoint's {"d": value} into rows, as fieldRows does for XML.
  function jsonRows(text) {
    var d;
    try { d = JSON.parse(text).d; } catch (e) { return []; }
    if (d === null || typeof d !== "object" || Array.isArray(d)) return [["d", JSON.stringify(d)]];
    return Object.keys(d).map(function (k) {
      var v = d[k];
      return [k, Array.isArray(v) ? v.join(", ") : (v !== null && typeof v === "object" ? JSON.stringify(v) : String(v))];
    });
  }
  // jsonBody builds the JSON endpoint's request: each field by name, typed by its XSD type.
  function jsonBody() {
    var body = {};
    var inputs = form.querySelectorAll("input[name]");
    for (var i = 0; i < inputs.length; i++) {
      var input = inputs[i], type = input.getAttribute("data-type"), v = input.value;
      if (/^(int|long|short|double|float|decimal)$/.test(type) && v.trim() !== "" && !isNaN(Number(v))) body[input.name] = Number(v);
      else if (type === "boolean" && (v === "true" || v === "false")) body[input.name] = v === "true";
      else body[input.name] = v;
    }
    return JSON.stringify(body);
  }
  function show(status, ok, type, text) {
    result.textContent = "";
    result.className = ok ? "" : "error";
    result.appendChild(el("h3", ok ? "Result" : "Error"));
    result.appendChild(el("p", status, "status"));
    if (ok && (/xml/.test(type) || /json/.test(type))) {
      var rows = /json/.test(type) ? jsonRows(text) : fieldRows(new DOMParser().parseFromString(text, "application/xml"));
      if (rows.length) {
        var table = el("table", undefined, "fields");
        var head = table.createTHead().insertRow();
        head.appendChild(el("th", "Field")).scope = "col";
        head.appendChild(el("th", "Value")).scope = "col";
        var body = table.createTBody();
        rows.forEach(function (r) {
          var tr = body.insertRow();
          tr.appendChild(el("th", r[0])).scope = "row";
          tr.appendChild(el("td", r[1]));
        });
        result.appendChild(table);
      }
    }
    result.appendChild(el("h4", ok ? (/json/.test(type) ? "Response JSON" : "Response XML") : "Message"));
    var pre = el("pre", text);
    pre.tabIndex = 0;
    result.appendChild(pre);
  }
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    show("Invoking…", true, "", "");
    var binding = form.getAttribute("data-binding");
    var request;
    if (binding === "json") {
      request = fetch(form.action, { method: "POST", headers: { "Content-Type": "application/json; charset=utf-8" }, body: jsonBody() });
    } else if (binding === "get") {
      request = fetch(form.action + "?" + new URLSearchParams(new FormData(form)).toString());
    } else {
      request = fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)) });
    }
    request
      .then(function (resp) {
        return resp.text().then(function (text) {
          var type = resp.headers.get("Content-Type") || "";
          if (!resp.ok && /json/.test(type)) {
            try { text = JSON.parse(text).Message || text; } catch (e) { /* keep the raw text */ }
          }
          show("HTTP " + resp.status + " " + resp.statusText, resp.ok, type, text);
        });
      })
      .catch(function (err) {
        show("The request failed: " + err.message, false, "", "");
      });
  });
})();
