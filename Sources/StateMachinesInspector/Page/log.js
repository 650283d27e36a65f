// The inspector page's event log (part of the page; see app.js): one row per record of kinds
// event/step/rejected/invoke (an event and its step share a row), the last 2,000 rows kept,
// pause, filter and clear.
'use strict';

/** The log, given `$` (element by id) and whether an object id is the one shown. */
window.makeInspectorLog = ({ $, isSelected }) => {
  const MAX_ROWS = 2000;
  let paused = false;
  let held = [];

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
    const hidden = !isSelected(row.dataset.object) || (text && !row.textContent.toLowerCase().includes(text));
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

  function clear() {
    $('log').tBodies[0].textContent = '';
    held = [];
  }

  return { cell, logRecord, markOutcome, filterRows, togglePause, clear };
};
