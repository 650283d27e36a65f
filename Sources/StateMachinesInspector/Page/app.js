// The inspector page (protocol statemachines-inspect/1): trades the URL's token for a cookie,
// lists the objects, draws the selected one's diagram, highlights its active states, logs its
// records from one EventSource, and sends events by POST. Vanilla JS: no framework, no CDN.
'use strict';

(() => {
  const FLASH_MS = 1500;
  const $ = (id) => document.getElementById(id);

  /** id → { id, name, detached, latest (snapshot or step), doc, openRow } */
  const objects = new Map();
  let selected = null;
  let diagramToken = 0;
  const log = window.makeInspectorLog({ $, isSelected: (id) => id === selected });
  const store = window.makeInspectorStore({
    $, api, cell: log.cell, currentId: () => selected,
    renderHeader: () => renderHeader(), highlight: (object) => highlight(object), renderButtons: (object) => renderButtons(object),
  });

  // MARK: Session and API

  function showBanner(text) {
    const banner = $('banner');
    banner.textContent = text;
    banner.className = 'error';
    banner.hidden = false;
  }

  const NOT_AUTHORISED = '401 — not authorised: open the URL printed by statemachine inspect';

  async function api(path, options) {
    const response = await fetch(path, Object.assign({ credentials: 'same-origin' }, options || {}));
    if (response.status === 401) {
      showBanner(NOT_AUTHORISED);
      throw new Error('401');
    }
    return response;
  }

  async function openSession() {
    const match = /(?:^#|&)token=([0-9a-fA-F]+)/.exec(location.hash);
    if (!match) return;
    history.replaceState(null, '', location.pathname + location.search);
    await api('/api/session', { method: 'POST', headers: { Authorization: 'Bearer ' + match[1] } });
  }

  async function loadObjects() {
    const response = await api('/api/objects');
    const body = await response.json();
    for (const info of body.objects) {
      const object = ensureObject(info.id, info.name);
      object.detached = info.detached;
      object.store = Boolean(info.store);
    }
    renderObjectList();
    if (selected === null && body.objects.length > 0) await select(body.objects[0].id);
  }

  function ensureObject(id, name) {
    let object = objects.get(id);
    if (!object) {
      object = { id, name: name || id, detached: false, latest: null, doc: null, openRow: null };
      objects.set(id, object);
      renderObjectList();
    } else if (name) {
      object.name = name;
    }
    return object;
  }

  function renderObjectList() {
    const list = $('objects');
    const previous = list.value;
    list.textContent = '';
    for (const object of objects.values()) {
      const option = document.createElement('option');
      option.value = object.id;
      option.textContent = object.name + (object.detached ? ' (detached)' : '');
      list.appendChild(option);
    }
    list.value = selected !== null ? selected : previous;
    list.parentElement.hidden = objects.size < 2;
  }

  async function select(id) {
    selected = id;
    $('objects').value = id;
    const object = objects.get(id);
    renderHeader();
    log.filterRows();
    const token = ++diagramToken;
    try {
      if (!object.doc) object.doc = await (await api('/api/objects/' + id + '/definition')).json();
      const response = await api('/api/objects/' + id + '/diagram.svg');
      const svg = response.ok ? await response.text() : null;
      if (token !== diagramToken) return;
      drawDiagram(object.doc, svg);
    } catch (error) {
      if (token === diagramToken) $('diagram').textContent = 'No diagram: ' + error.message;
    }
    $('store-panel').hidden = !object.store;
    if (object.store) await store.loadInstances(object);
    highlight(object);
    renderButtons(object);
  }

  // MARK: Diagram

  function drawDiagram(doc, svgText) {
    const diagram = $('diagram');
    diagram.textContent = '';
    if (svgText) {
      const parsed = new DOMParser().parseFromString(svgText, 'image/svg+xml');
      const svg = parsed.documentElement;
      if (svg && svg.nodeName.toLowerCase() === 'svg') {
        for (const title of svg.querySelectorAll('g > title')) title.remove();
        diagram.appendChild(document.importNode(svg, true));
        return;
      }
    }
    diagram.appendChild(outline(doc));
  }

  /** Nested lists of the state tree, with the SVG's ids, when the server has no `dot`. */
  function outline(doc) {
    const children = new Map();
    for (const state of doc.states) {
      const key = state.parent === null || state.parent === undefined ? -1 : state.parent;
      if (!children.has(key)) children.set(key, []);
      children.get(key).push(state);
    }
    const list = (parent) => {
      const ul = document.createElement('ul');
      for (const state of children.get(parent) || []) {
        const li = document.createElement('li');
        li.id = 's' + state.index;
        const label = document.createElement('span');
        label.textContent = state.name + (state.kind && state.kind !== 'atomic' ? ' (' + state.kind + ')' : '');
        li.appendChild(label);
        if (children.has(state.index)) li.appendChild(list(state.index));
        ul.appendChild(li);
      }
      return ul;
    };
    return list(-1);
  }

  function activeIndexes(object) {
    const indexes = new Set();
    if (!object.doc || !object.latest) return indexes;
    const configuration = object.latest.configuration || [];
    for (const state of object.doc.states) {
      if (configuration.includes(state.path)) indexes.add(state.index);
    }
    return indexes;
  }

  function highlight(object) {
    if (object.id !== selected) return;
    for (const element of $('diagram').querySelectorAll('.active')) element.classList.remove('active');
    for (const index of activeIndexes(object)) {
      const element = document.getElementById('s' + index);
      if (element) element.classList.add('active');
    }
  }

  function flash(object, transitions) {
    if (object.id !== selected) return;
    for (const index of transitions || []) {
      const element = document.getElementById('t' + index);
      if (!element) continue;
      element.classList.add('flash');
      setTimeout(() => element.classList.remove('flash'), FLASH_MS);
    }
  }

  // MARK: Header and event buttons

  function renderHeader() {
    const object = objects.get(selected);
    if (!object) return;
    const latest = object.latest || {};
    $('state').textContent = latest.state !== undefined ? latest.state : '';
    $('terminated').textContent = latest.terminated ? 'true' : 'false';
    renderObjectList();
  }

  /** Events with a transition from an active state (which includes every active ancestor), or
   *  from no particular state; from the structure only: guards are not run for display. */
  function renderButtons(object) {
    if (object.id !== selected) return;
    const box = $('event-buttons');
    box.textContent = '';
    if (!object.doc || object.detached) return;
    const active = activeIndexes(object);
    const names = [];
    for (const transition of object.doc.transitions) {
      const name = transition.event;
      if (!name || name.includes('*') || names.includes(name)) continue;
      // Timeouts and notifications fire by themselves.
      if (transition.timeout !== null && transition.timeout !== undefined) continue;
      if (transition.notification !== null && transition.notification !== undefined) continue;
      const from = transition.source;
      if (from === null || from === undefined || from < 0 || active.has(from)) names.push(name);
    }
    for (const name of names) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.event = name;
      button.textContent = name;
      button.addEventListener('click', () => sendEvent(name, undefined));
      box.appendChild(button);
    }
  }

  // MARK: Sending

  async function sendEvent(name, payload) {
    const result = $('send-result');
    if (selected === null) return;
    const object = objects.get(selected);
    let path = '/api/objects/' + selected + '/events';
    if (object.store) {
      if (object.instance === undefined) {
        result.textContent = 'select an instance first';
        return;
      }
      path = '/api/objects/' + selected + '/instances/' + encodeURIComponent(object.instance) + '/events';
    }
    const body = { event: name };
    if (payload !== undefined) body.payload = payload;
    try {
      const response = await api(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) {
        result.textContent = (await response.text()).trim();
        return;
      }
      const answer = await response.json();
      result.textContent = answer.outcome + (answer.reason ? ': ' + answer.reason : '');
      log.markOutcome(selected, name, answer);
    } catch (error) {
      result.textContent = error.message;
    }
  }

  function sendTyped(event) {
    event.preventDefault();
    const name = $('event-name').value.trim();
    const text = $('event-payload').value.trim();
    if (!name) return;
    let payload;
    if (text) {
      try {
        payload = JSON.parse(text);
      } catch (error) {
        $('send-result').textContent = 'payload is not JSON: ' + error.message;
        return;
      }
    }
    sendEvent(name, payload);
  }

  // MARK: Stream

  function onRecord(record) {
    if (record.kind === 'hello') return;
    const object = ensureObject(record.object, record.name);
    if (record.instance !== undefined) {
      // A row of a store was fired on: log it, then read the rows again.
      log.logRecord(object, record);
      if (object.id === selected) {
        store.loadInstances(object).then(() => {
          if (object.instance === record.instance) store.selectInstance(object, record.instance);
        }, () => {});
      }
      return;
    }
    switch (record.kind) {
      case 'attached':
        object.detached = false;
        renderObjectList();
        if (selected === null) select(object.id);
        return;
      case 'detached':
        object.detached = true;
        renderObjectList();
        if (object.id === selected) renderButtons(object);
        return;
      case 'gap':
        $('connection').title = record.lost + ' records lost (the server keeps a bounded ring)';
        object.openRow = null;
        return;
      case 'snapshot':
        object.latest = record;
        break;
      case 'step':
        object.latest = record;
        flash(object, record.transitions);
        log.logRecord(object, record);
        break;
      default:
        log.logRecord(object, record);
        return;
    }
    if (object.id === selected) {
      renderHeader();
      highlight(object);
      renderButtons(object);
    }
  }

  function openStream() {
    const status = $('connection');
    const source = new EventSource('/api/stream');
    source.onopen = () => {
      status.textContent = 'connected';
      status.className = 'connected';
    };
    source.onmessage = (message) => {
      try {
        onRecord(JSON.parse(message.data));
      } catch (error) {
        console.error('inspector: bad record', error);
      }
    };
    source.onerror = () => {
      status.textContent = 'disconnected';
      status.className = 'disconnected';
      if (source.readyState === EventSource.CLOSED) {
        // Refused for good (a restarted server's cookie is stale): find out why, then retry.
        api('/api/objects').then(() => setTimeout(openStream, 2000), () => {});
      }
    };
  }

  async function start() {
    $('objects').addEventListener('change', (event) => select(event.target.value));
    $('event-form').addEventListener('submit', sendTyped);
    $('pause').addEventListener('click', log.togglePause);
    $('clear').addEventListener('click', () => {
      log.clear();
      for (const object of objects.values()) object.openRow = null;
    });
    $('filter').addEventListener('input', log.filterRows);
    try {
      await openSession();
      await loadObjects();
    } catch (error) {
      if (error.message !== '401') showBanner('Cannot reach the inspector: ' + error.message);
      return;
    }
    openStream();
  }

  document.addEventListener('DOMContentLoaded', start);
})();
