// The inspector page (protocol statemachines-inspect/1): trades the URL's token for a cookie,
// lists the objects, draws the selected one's diagram, highlights its active states, logs its
// records from one EventSource, and sends events by POST. Vanilla JS: no framework, no CDN.
'use strict';

(() => {
  const MAX_ROWS = 2000;
  const FLASH_MS = 1500;
  const $ = (id) => document.getElementById(id);

  /** id → { id, name, detached, latest (snapshot or step), doc, openRow } */
  const objects = new Map();
  let selected = null;
  let paused = false;
  let held = [];
  let diagramToken = 0;

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
    filterRows();
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
    if (object.store) await loadInstances(object);
    highlight(object);
    renderButtons(object);
  }

  // MARK: A store's rows

  /** The rows of a store object: the list, and the number in each state as a badge on it. */
  async function loadInstances(object) {
    const body = await (await api('/api/objects/' + object.id + '/instances')).json();
    if (object.id !== selected) return;
    $('instance-total').textContent = '(' + body.total + ')';
    const list = $('instances').tBodies[0];
    list.textContent = '';
    for (const row of body.instances) {
      const tr = document.createElement('tr');
      tr.dataset.instance = row.id;
      tr.classList.toggle('selected', row.id === object.instance);
      cell(tr, 'id', row.id);
      cell(tr, 'state', row.state);
      tr.addEventListener('click', () => selectInstance(object, row.id));
      list.appendChild(tr);
    }
    drawCounts(object, body.counts || {});
    if (object.instance === undefined && body.instances.length > 0) await selectInstance(object, body.instances[0].id);
  }

  function drawCounts(object, counts) {
    const diagram = $('diagram');
    for (const badge of diagram.querySelectorAll('.count-badge')) badge.remove();
    for (const element of diagram.querySelectorAll('[data-count]')) element.removeAttribute('data-count');
    if (!object.doc) return;
    for (const state of object.doc.states) {
      const count = counts[state.path];
      const element = document.getElementById('s' + state.index);
      if (!count || !element) continue;
      element.setAttribute('data-count', String(count));
      if (element instanceof SVGGraphicsElement) {
        const box = element.getBBox();
        const text = document.createElementNS('http://www.w3.org/2000/svg', 'text');
        text.setAttribute('class', 'count-badge');
        text.setAttribute('x', String(box.x + box.width - 4));
        text.setAttribute('y', String(box.y + 12));
        text.setAttribute('text-anchor', 'end');
        text.textContent = String(count);
        element.appendChild(text);
      } else {
        const badge = document.createElement('span');
        badge.className = 'count-badge';
        badge.textContent = String(count);
        element.firstChild.appendChild(badge);
      }
    }
  }

  /** Shows one row: its configuration highlighted, its deadlines and history. */
  async function selectInstance(object, id) {
    const response = await api('/api/objects/' + object.id + '/instances/' + encodeURIComponent(id));
    if (!response.ok || object.id !== selected) return;
    const row = await response.json();
    object.instance = id;
    object.latest = { configuration: row.configuration, state: row.state, terminated: row.terminated };
    for (const tr of $('instances').tBodies[0].rows) tr.classList.toggle('selected', tr.dataset.instance === id);
    $('instance-id').textContent = id;
    const lines = ['state: ' + row.state + '  version: ' + row.version + (row.terminated ? '  terminated' : '')];
    for (const deadline of row.deadlines) {
      lines.push('deadline: ' + deadline.event + ' due ' + deadline.dueAt + (deadline.state ? ' (armed by ' + deadline.state + ')' : ''));
    }
    for (const step of row.history) {
      lines.push(step.version + ' ' + step.at + ' ' + step.cause + ' ' + (step.event || '-') + ': ' + step.from + ' → ' + step.to +
                 (step.payload ? ' payload ' + step.payload : ''));
    }
    $('instance').textContent = lines.join('\n');
    renderHeader();
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
      markOutcome(selected, name, answer);
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

  // MARK: Log

  function time(record) {
    if (!record.time) return '';
    const date = new Date(record.time);
    return isNaN(date) ? record.time : date.toISOString().slice(11, 23);
  }

  function cell(row, className, text) {
    const td = document.createElement('td');
    td.className = className;
    td.textContent = text === undefined || text === null ? '' : String(text);
    row.appendChild(td);
    return td;
  }

  function newRow(record) {
    const row = document.createElement('tr');
    row.dataset.seq = record.seq;
    row.dataset.kind = record.kind;
    row.dataset.object = record.object;
    cell(row, 'seq', record.seq);
    cell(row, 'time', time(record));
    cell(row, 'event', record.event);
    cell(row, 'source', record.source);
    cell(row, 'payload', record.payload);
    cell(row, 'outcome', '');
    cell(row, 'duration', '');
    cell(row, 'changes', '');
    return row;
  }

  function complete(row, record) {
    row.dataset.kind = record.kind;
    const set = (name, text) => { row.querySelector('.' + name).textContent = text; };
    if (record.payload !== undefined && record.payload !== null && !row.querySelector('.payload').textContent) set('payload', record.payload);
    if (record.kind === 'step' && record.instance !== undefined) {
      row.dataset.outcome = 'transition';
      set('outcome', 'transition');
      set('changes', record.instance + ' → ' + record.state);
    } else if (record.kind === 'step') {
      row.dataset.outcome = 'transition';
      set('outcome', record.reason ? 'transition (error: ' + record.reason + ')' : 'transition');
      if (typeof record.duration === 'number') set('duration', (record.duration * 1000).toFixed(3));
      set('changes', (record.exited || []).join(', ') + ' → ' + (record.entered || []).join(', '));
    } else if (record.kind === 'rejected') {
      row.dataset.outcome = 'rejected';
      set('outcome', 'rejected');
      set('changes', (record.instance !== undefined ? record.instance + ': ' : '') + (record.reason || ''));
    }
  }

  function logRecord(object, record) {
    let row;
    if (record.kind === 'event') {
      row = newRow(record);
      object.openRow = row;
    } else if ((record.kind === 'step' || record.kind === 'rejected') && object.openRow &&
               object.openRow.querySelector('.event').textContent === (record.event || '')) {
      complete(object.openRow, record);
      object.openRow = null;
      return;
    } else {
      row = newRow(record);
      if (record.kind === 'invoke' && record.invocation) {
        const invocation = record.invocation;
        row.querySelector('.event').textContent = record.event || invocation.id;
        row.querySelector('.outcome').textContent = invocation.phase;
        row.querySelector('.changes').textContent = invocation.id + '#' + invocation.generation + ' in ' + invocation.state;
      } else {
        complete(row, record);
      }
      object.openRow = null;
    }
    addRow(row);
  }

  /** Gives the POST's outcome to the row of its event when the stream has not (an event
   *  whose step changed nothing, or one that was queued). */
  function markOutcome(objectId, name, answer) {
    const rows = $('log').tBodies[0].rows;
    for (let index = rows.length - 1; index >= 0; index--) {
      const row = rows[index];
      if (row.dataset.object !== objectId || row.querySelector('.event').textContent !== name) continue;
      if (!row.dataset.outcome) {
        row.dataset.outcome = answer.outcome;
        row.querySelector('.outcome').textContent = answer.outcome;
        if (answer.reason) row.querySelector('.changes').textContent = answer.reason;
      }
      return;
    }
  }

  function addRow(row) {
    if (paused) {
      held.push(row);
      if (held.length > MAX_ROWS) held.splice(0, held.length - MAX_ROWS);
      return;
    }
    const body = $('log').tBodies[0];
    applyFilter(row);
    body.appendChild(row);
    while (body.rows.length > MAX_ROWS) body.deleteRow(0);
  }

  function applyFilter(row) {
    const text = $('filter').value.trim().toLowerCase();
    const hidden = row.dataset.object !== selected || (text && !row.textContent.toLowerCase().includes(text));
    row.classList.toggle('hidden', Boolean(hidden));
  }

  function filterRows() {
    for (const row of $('log').tBodies[0].rows) applyFilter(row);
  }

  function togglePause() {
    paused = !paused;
    $('pause').textContent = paused ? 'Resume' : 'Pause';
    if (!paused) {
      const rows = held;
      held = [];
      for (const row of rows) addRow(row);
    }
  }

  // MARK: Stream

  function onRecord(record) {
    if (record.kind === 'hello') return;
    const object = ensureObject(record.object, record.name);
    if (record.instance !== undefined) {
      // A row of a store was fired on: log it, then read the rows again.
      logRecord(object, record);
      if (object.id === selected) {
        loadInstances(object).then(() => {
          if (object.instance === record.instance) selectInstance(object, record.instance);
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
        logRecord(object, record);
        break;
      default:
        logRecord(object, record);
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
    $('pause').addEventListener('click', togglePause);
    $('clear').addEventListener('click', () => {
      $('log').tBodies[0].textContent = '';
      held = [];
      for (const object of objects.values()) object.openRow = null;
    });
    $('filter').addEventListener('input', filterRows);
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
