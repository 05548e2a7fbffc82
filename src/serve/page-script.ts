/**
 * The approval page's script, plain JavaScript run in the browser. It never puts text it was
 * sent into HTML: every value becomes a text node or an attribute. It reads the API with the
 * token (from the page's `#token=` fragment, or typed in, kept for the tab only) and keeps one
 * event stream open, read with fetch so that it can carry the token; each change it announces
 * makes the page read that list again. Written without backquotes: it lives in a template.
 */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var token = null;
  var match = /(?:^|&)token=([^&]*)/.exec(location.hash.slice(1));
  if (match) {
    token = decodeURIComponent(match[1]);
    sessionStorage.setItem('planmode-token', token);
    history.replaceState(null, '', location.pathname);
  } else token = sessionStorage.getItem('planmode-token');
  var agentsShown = document.documentElement.getAttribute('data-agents') === 'true';
  var $ = function (id) { return document.getElementById(id); };

  function headers(json) {
    var h = {};
    if (token) h.Authorization = 'Bearer ' + token;
    if (json) h['Content-Type'] = 'application/json';
    return h;
  }

  function el(tag, attrs) {
    var node = document.createElement(tag);
    for (var key in attrs || {}) {
      if (key === 'text') node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    }
    for (var k = 2; k < arguments.length; k++) if (arguments[k]) node.appendChild(arguments[k]);
    return node;
  }

  function showError(message) { $('page-error').textContent = message || ''; }

  function api(method, path, body) {
    return fetch(path, { method: method, headers: headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (response) {
        if (response.status === 401) {
          $('token-form').setAttribute('data-shown', 'true');
          throw new Error('this server needs its token');
        }
        return response.json().then(function (value) {
          if (!response.ok) {
            var e = value && value.error ? value.error : { message: response.statusText };
            throw new Error(e.message + (e.diagnostics ? ': ' + e.diagnostics.map(function (d) { return d.message; }).join('; ') : ''));
          }
          return value;
        });
      });
  }

  function pretty(value) {
    try { return typeof value === 'string' ? value : JSON.stringify(value, null, 2); } catch (e) { return String(value); }
  }

  function answer(id, body, card) {
    var buttons = card.querySelectorAll('button');
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    return api('POST', '/api/approvals/' + id, body)
      .then(function () { showError(''); card.setAttribute('data-answered', 'true'); refresh('approvals'); })
      .catch(function (e) {
        showError(e.message);
        for (var i = 0; i < buttons.length; i++) buttons[i].disabled = false;
      });
  }

  function planDetails(request, card) {
    var parts = [];
    if (request.simulation) {
      var s = request.simulation;
      parts.push(el('div', { class: 'summary' },
        el('span', { text: request.calls.length + ' call(s)' }),
        el('span', { text: s.scenarios.length + ' scenario(s)' + (s.truncated ? ' (more not listed)' : '') }),
        el('span', { text: 'critical path: ' + (s.criticalPath.join(' → ') || 'none') }),
        el('span', { text: 'widest level: ' + s.maxParallelism }),
        el('span', { class: s.argumentErrors.length ? 'diagnostic' : '', text: s.argumentErrors.length + ' argument error(s) in the dry run' })));
    }
    if (request.edit) {
      parts.push(el('p', { class: 'diagnostic', text: 'The edited plan (edit ' + request.edit.attempt + ') does not compile; ' + request.edit.retriesLeft + ' more edit(s) allowed:' }));
      request.edit.diagnostics.forEach(function (d) {
        parts.push(el('div', { class: 'diagnostic', text: d.code + (d.line ? ' at ' + d.line + ':' + d.column : '') + ': ' + d.message }));
      });
    }
    if (request.report) {
      var frame = el('iframe', { class: 'report', title: 'dry run of the plan', sandbox: 'allow-scripts' });
      parts.push(frame);
      fetch(request.report, { headers: headers(false) })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(new Error('report: ' + r.status)); })
        .then(function (html) { frame.srcdoc = html; })
        .catch(function (e) { frame.replaceWith(el('p', { class: 'error', text: e.message })); });
    }
    var text = el('textarea', { class: 'plan-json', spellcheck: 'false', 'aria-label': 'the plan as JSON' });
    text.value = request.edit ? request.edit.text : pretty(request.document);
    parts.push(el('details', { class: 'edit' }, el('summary', { text: 'Edit the plan (JSON)' }), text,
      el('div', { class: 'actions' }, button('approve-edited', 'Approve the edited plan', function () {
        var edited;
        try { edited = JSON.parse(text.value); } catch (e) { edited = text.value; }
        answer(request.id, { approved: true, plan: edited }, card);
      }))));
    return parts;
  }

  function button(cls, label, onClick) {
    var b = el('button', { type: 'button', class: cls, text: label });
    b.addEventListener('click', onClick);
    return b;
  }

  function approvalCard(request) {
    var card = el('section', { class: 'card', 'data-approval-id': request.id, 'data-kind': request.kind });
    var who = request.run ? 'run ' + request.run : 'agent ' + request.agent;
    var title = request.kind === 'plan' ? 'Plan of ' + who : 'Call ' + request.call + ' (' + request.tool + ') of ' + who;
    card.appendChild(el('h3', { text: title }));
    card.appendChild(el('p', { class: 'reason muted', text: request.reason }));
    if (request.kind === 'call') {
      if (request.description) card.appendChild(el('p', { text: request.description }));
      card.appendChild(el('div', { text: 'Arguments:' }));
      card.appendChild(el('pre', { class: 'args', text: pretty(request.args) }));
    } else if (request.markdown !== undefined) {
      card.appendChild(el('pre', { class: 'markdown', text: request.markdown }));
    } else {
      planDetails(request, card).forEach(function (part) { card.appendChild(part); });
    }
    var feedback = el('input', { class: 'feedback', type: 'text', placeholder: 'feedback (sent with a rejection)' });
    card.appendChild(el('div', { class: 'actions' },
      button('approve', 'Approve', function () { answer(request.id, { approved: true }, card); }),
      feedback,
      button('reject', 'Reject', function () { answer(request.id, { approved: false, feedback: feedback.value }, card); })));
    return card;
  }

  function renderApprovals(list) {
    var box = $('approvals');
    var keep = {};
    list.forEach(function (r) { keep[r.id] = true; });
    // Cards already shown stay as they are (a report drawn, a plan being edited).
    Array.prototype.slice.call(box.querySelectorAll('[data-approval-id]')).forEach(function (card) {
      if (!keep[card.getAttribute('data-approval-id')]) card.remove();
    });
    list.forEach(function (r) {
      if (!box.querySelector('[data-approval-id="' + r.id + '"]')) box.appendChild(approvalCard(r));
    });
    var empty = box.querySelector('p.muted');
    if (list.length && empty) empty.remove();
    if (!list.length && !empty) box.appendChild(el('p', { class: 'muted', text: 'Nothing is waiting.' }));
    $('approval-count').textContent = list.length ? '(' + list.length + ')' : '';
  }

  function renderRuns(list) {
    var body = $('runs');
    body.textContent = '';
    list.slice().reverse().forEach(function (r) {
      body.appendChild(el('tr', { 'data-run-id': r.id },
        el('td', { text: r.id }), el('td', { class: 'status', 'data-status': r.status, text: r.status }),
        el('td', { text: r.mode }), el('td', { text: String(r.calls) }), el('td', { text: r.createdAt })));
    });
  }

  function renderAgents(list) {
    var body = $('agents');
    body.textContent = '';
    list.slice().reverse().forEach(function (a) {
      body.appendChild(el('tr', { 'data-agent-id': a.id },
        el('td', { text: a.id }), el('td', { text: a.task }), el('td', { class: 'status', 'data-status': a.status, text: a.status }),
        el('td', { text: a.latch })));
    });
  }

  function refresh(topic) {
    var work = [];
    if (!topic || topic === 'approvals') work.push(api('GET', '/api/approvals').then(function (v) { renderApprovals(v.approvals); }));
    if (!topic || topic === 'runs') work.push(api('GET', '/api/runs').then(function (v) { renderRuns(v.runs); }));
    if (agentsShown && (!topic || topic === 'agents')) work.push(api('GET', '/api/agents').then(function (v) { renderAgents(v.agents); }));
    return Promise.all(work).catch(function (e) { showError(e.message); });
  }

  function setConnection(state, text) {
    var c = $('connection');
    c.setAttribute('data-state', state);
    c.textContent = text;
  }

  // The server's change feed, read with fetch so it carries the token.
  function listen() {
    fetch('/api/events', { headers: headers(false) }).then(function (response) {
      if (response.status === 401) {
        $('token-form').setAttribute('data-shown', 'true');
        setConnection('down', 'needs the token');
        return;
      }
      if (!response.ok || !response.body) throw new Error('event stream: ' + response.status);
      setConnection('live', 'live');
      var reader = response.body.getReader();
      var decoder = new TextDecoder();
      var buffer = '';
      function pump() {
        return reader.read().then(function (chunk) {
          if (chunk.done) throw new Error('the event stream ended');
          buffer += decoder.decode(chunk.value, { stream: true });
          var end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            var message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            var data = /^data: (.*)$/m.exec(message);
            var event = /^event: (.*)$/m.exec(message);
            if (event && event[1] === 'hello') refresh().then(function () { document.documentElement.setAttribute('data-ready', 'true'); });
            else if (event && event[1] === 'change' && data) refresh(JSON.parse(data[1]).topic);
          }
          return pump();
        });
      }
      return pump();
    }).catch(function (e) {
      setConnection('down', 'disconnected (' + e.message + '); reconnecting…');
      setTimeout(listen, 2000);
    });
  }

  $('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    token = $('token').value;
    sessionStorage.setItem('planmode-token', token);
    $('token-form').setAttribute('data-shown', 'false');
    showError('');
    listen();
  });
  listen();
})();
`;
