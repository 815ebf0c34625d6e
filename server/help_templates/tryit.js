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
  function show(status, ok, type, text) {
    result.textContent = "";
    result.className = ok ? "" : "error";
    result.appendChild(el("h3", ok ? "Result" : "Error"));
    result.appendChild(el("p", status, "status"));
    if (ok && /xml/.test(type)) {
      var rows = fieldRows(new DOMParser().parseFromString(text, "application/xml"));
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
    result.appendChild(el("h4", ok ? "Response XML" : "Message"));
    var pre = el("pre", text);
    pre.tabIndex = 0;
    result.appendChild(pre);
  }
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    show("Invoking…", true, "", "");
    fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)) })
      .then(function (resp) {
        return resp.text().then(function (text) {
          show("HTTP " + resp.status + " " + resp.statusText, resp.ok, resp.headers.get("Content-Type") || "", text);
        });
      })
      .catch(function (err) {
        show("The request failed: " + err.message, false, "", "");
      });
  });
})();
