// The inspector page's view of a store's rows (part of the page; see app.js): the rows, the
// number in each state as a badge on the diagram (`data-count`), the selected row's
// configuration, deadlines and history.
'use strict';

/** The store view, given the page's helpers and state. */
window.makeInspectorStore = ({ $, api, cell, currentId, renderHeader, highlight, renderButtons }) => {
  /** The rows of a store object: the list, and the number in each state as a badge on it. */
  async function loadInstances(object) {
    const body = await (await api('/api/objects/' + object.id + '/instances')).json();
    if (object.id !== currentId()) return;
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
    if (!response.ok || object.id !== currentId()) return;
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

  return { loadInstances, selectInstance };
};
