// The triage page's script: the as-of-tick belief table, the feed, the
// rule log, the curves' cursor and the URL fragment (#T2.1@44). It reads
// each section's embedded data (layout in the Go package's doc.go) and
// builds everything with DOM calls: no markup from data, nothing fetched.
(function () {
  'use strict';
  var KINDS = ['event', 'encounter', 'transmission', 'rule', 'supersession', 'belief'];
  // BLOCKS mirrors page.Blocks: each social block's key parts and dense
  // fields, in the dense contract's order (a block's code is its index).
  var BLOCKS = [
    { name: 'accumulator', title: 'Accumulators', key: ['victim', 'offender'], fields: ['count', 'armed'] },
    { name: 'grudge', title: 'Grudges', key: ['holder', 'target'], fields: ['emotional', 'evidentiary', 'settled'] },
    { name: 'obligation', title: 'Obligations', key: ['favour'], fields: ['state'] },
    { name: 'reputation', title: 'Reputation', key: ['observer', 'subject', 'dimension'], fields: ['alpha', 'beta', 'mean'] },
    { name: 'pair', title: 'Pair weights', key: ['a', 'b'], fields: ['weight'] },
    { name: 'role', title: 'Roles', key: ['role'], fields: ['holder', 'vacant', 'lapses'] },
    { name: 'schedule', title: 'Schedules a rule changed', key: ['npc'], fields: ['base', 'override'] }
  ];

  // parseFragment mirrors page.ParseFragment: the tick follows the last
  // "@", the name is percent-decoded.
  function parseFragment(h) {
    h = h.replace(/^#/, '');
    if (!h) return null;
    var name = h, tick = -1, i = h.lastIndexOf('@');
    if (i >= 0) {
      var d = h.slice(i + 1);
      if (!/^[0-9]+$/.test(d)) return null;
      tick = parseInt(d, 10);
      name = h.slice(0, i);
    }
    try { name = decodeURIComponent(name); } catch (e) { return null; }
    return name ? { name: name, tick: tick } : null;
  }

  // fragment mirrors page.Fragment.
  function fragment(name, tick) {
    var out = '', bytes = new TextEncoder().encode(name);
    for (var i = 0; i < bytes.length; i++) {
      var c = String.fromCharCode(bytes[i]);
      out += /[A-Za-z0-9._~\/-]/.test(c) ? c : '%' + (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16).toUpperCase();
    }
    return tick >= 0 ? out + '@' + tick : out;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // at returns the last change at or before tick t (changes start with
  // their tick), or null.
  function at(changes, t) {
    var lo = 0, hi = changes.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (changes[mid][0] <= t) lo = mid + 1; else hi = mid;
    }
    return lo ? changes[lo - 1] : null;
  }

  function Section(root) {
    var d = JSON.parse(root.querySelector('script.data').textContent);
    var S = d.s, self = this;
    this.root = root;
    this.name = root.getAttribute('data-name');
    this.d = d;
    this.range = root.querySelector('input.scrub');
    this.number = root.querySelector('input.tickno');
    if (!this.range) return;
    this.min = +this.range.min;
    this.max = +this.range.max;
    function beliefIndex(list) {
      var m = new Map();
      (list || []).forEach(function (b) {
        var h = S[b[0]], c = S[b[1]];
        if (!m.has(h)) m.set(h, new Map());
        m.get(h).set(c, b[2]);
      });
      return m;
    }
    this.bel = beliefIndex(d.bel);
    this.gbel = d.gbel ? beliefIndex(d.gbel) : null;
    this.ev = new Map();
    (d.ev || []).forEach(function (b) { self.ev.set(S[b[0]] + '\u0000' + S[b[1]], b[2]); });
    this.cnt = new Map();
    (d.cnt || []).forEach(function (c) { self.cnt.set(c[0], c); });
    function socialIndex(list) {
      var m = new Map();
      (list || []).forEach(function (x) { m.set(x[0] + '\u0000' + S[x[1]], { block: x[0], key: S[x[1]], changes: x[2] }); });
      return m;
    }
    this.soc = d.soc ? socialIndex(d.soc) : null;
    this.gsoc = d.gsoc ? socialIndex(d.gsoc) : null;
    this.sch = new Map();
    (d.sch || []).forEach(function (c) {
      var k = c[2] + '\u0000' + S[c[3]];
      if (!self.sch.has(k)) self.sch.set(k, []);
      self.sch.get(k).push(c);
    });
    this.buildRuleLog();
    this.range.addEventListener('input', function () { self.setTick(+self.range.value, true); });
    this.number.addEventListener('change', function () { self.setTick(+self.number.value, true); });
  }

  Section.prototype.s = function (i) { return this.d.s[i]; };

  Section.prototype.state = function (index, h, c, t) {
    var m = index && index.get(h), ch = m && m.get(c), st = ch ? at(ch, t) : null;
    if (!st || !st[1]) return { held: false, variant: '', confidence: '', stage: '', sources: '' };
    return { held: true, variant: this.s(st[2]), confidence: this.s(st[3]), stage: this.s(st[4]), sources: this.s(st[5]) };
  };

  // rows mirrors Section.BeliefsAt in Go.
  Section.prototype.rows = function (t) {
    var self = this, rows = [];
    this.d.npc.forEach(function (n) {
      var h = self.s(n[0]), p = at(n[1], t) || [0, 1, -1];
      var base = { holder: h, alive: !!p[1], at: p[2] >= 0 ? self.s(p[2]) : '' };
      var claims = [];
      [self.bel, self.gbel].forEach(function (idx) {
        var m = idx && idx.get(h);
        if (m) m.forEach(function (_, c) { if (claims.indexOf(c) < 0) claims.push(c); });
      });
      claims.sort();
      var held = 0;
      claims.forEach(function (c) {
        var a = self.state(self.bel, h, c, t), g = self.gbel ? self.state(self.gbel, h, c, t) : null;
        if (!a.held && !(g && g.held)) return;
        var r = Object.assign({}, base, a, { claim: c, evidence: [] });
        (self.ev.get(h + '\u0000' + c) || []).forEach(function (e) { if (e[0] <= t) r.evidence.push(e); });
        if (g && (g.held !== a.held || g.variant !== a.variant || g.confidence !== a.confidence || g.stage !== a.stage || g.sources !== a.sources)) r.golden = g;
        rows.push(r);
        held++;
      });
      if (!held) rows.push(Object.assign({}, base, { claim: '', held: false, variant: '', confidence: '', stage: 'unheard', sources: '', evidence: [] }));
    });
    return rows;
  };

  Section.prototype.evidenceText = function (holder, e) {
    var type = this.s(e[1]), chain = e[2].map(this.s, this), via = this.s(e[3]);
    var who = type === 'witnessed' ? 'saw it' : chain.concat([holder]).join(' → ');
    return 't' + e[0] + ' ' + type + ': ' + who + ' via ' + via + ', ' + this.s(e[4]) + ' at ' + this.s(e[5]) + (e[6] ? '' : ' (not counted)');
  };

  // socialState returns a social record's cells at tick t, null when it
  // has no track.
  Section.prototype.socialState = function (index, k, t) {
    var x = index && index.get(k), st = x ? at(x.changes, t) : null;
    return st ? st.slice(1).map(this.s, this) : null;
  };

  // whereAt returns where an NPC is at the end of tick t.
  Section.prototype.whereAt = function (npc, t) {
    var self = this, out = '';
    this.d.npc.forEach(function (n) {
      if (self.s(n[0]) !== npc) return;
      var p = at(n[1], t);
      if (p && p[2] >= 0) out = self.s(p[2]);
    });
    return out;
  };

  // socialRows mirrors Section.SocialAt in Go.
  Section.prototype.socialRows = function (t) {
    var self = this, keys = [], seen = new Set();
    [this.soc, this.gsoc].forEach(function (idx) {
      if (idx) idx.forEach(function (x, k) { if (!seen.has(k)) { seen.add(k); keys.push(x); } });
    });
    keys.sort(function (a, b) { return a.block - b.block || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0); });
    var exists = function (v) { return !!v && v.some(function (c) { return c !== ''; }); };
    var rows = [];
    keys.forEach(function (x) {
      var k = x.block + '\u0000' + x.key, b = BLOCKS[x.block];
      var a = self.socialState(self.soc, k, t), g = self.gsoc ? self.socialState(self.gsoc, k, t) : null;
      if (!exists(a) && !exists(g)) return;
      var r = { block: b, key: x.key, values: a || b.fields.map(function () { return ''; }), golden: null, last: null, where: '' };
      if (self.gsoc) {
        var gv = g || b.fields.map(function () { return ''; });
        if (gv.some(function (v, i) { return v !== r.values[i]; })) r.golden = gv;
      }
      if (b.name === 'schedule' && r.values[1]) r.where = self.whereAt(x.key, t);
      (self.sch.get(k) || []).forEach(function (c) { if (c[0] <= t) r.last = c; });
      rows.push(r);
    });
    return rows;
  };

  Section.prototype.renderSocial = function (t) {
    var self = this, box = this.root.querySelector('div.socialtables');
    if (!box) return;
    box.textContent = '';
    var rows = this.socialRows(t), tables = new Map();
    rows.forEach(function (r) {
      var b = r.block, body = tables.get(b.name);
      if (!body) {
        box.appendChild(el('h4', '', b.title));
        var table = el('table', 'social'), head = el('tr');
        table.setAttribute('data-block', b.name);
        var cols = b.key.slice();
        if (b.name === 'obligation') cols.push('creditor → debtor');
        cols = cols.concat(b.fields);
        if (b.name === 'schedule') cols.push('where');
        cols.concat(['last record']).forEach(function (c) { head.appendChild(el('th', '', c)); });
        table.appendChild(el('thead')).appendChild(head);
        body = table.appendChild(el('tbody'));
        box.appendChild(table);
        tables.set(b.name, body);
      }
      var tr = el('tr', r.golden ? 'differs' : '');
      tr.setAttribute('data-key', r.key);
      r.key.split('/').forEach(function (p, i) { tr.appendChild(el('td', 'c-' + b.key[i], p)); });
      if (b.name === 'obligation') tr.appendChild(el('td', 'c-parties', r.last ? self.s(r.last[8]) + ' → ' + self.s(r.last[9]) : '—'));
      b.fields.forEach(function (f, i) {
        var td = el('td', 'c-' + f, r.values[i] || '—');
        if (r.golden && r.golden[i] !== r.values[i]) td.appendChild(el('span', 'golden', 'golden: ' + (r.golden[i] || '—')));
        tr.appendChild(td);
      });
      if (b.name === 'schedule') tr.appendChild(el('td', 'c-where', r.where || '—'));
      var last = el('td', 'c-last');
      if (r.last) {
        var c = r.last, a = el('a', '', 't' + c[0]);
        a.href = '#' + fragment(self.name, c[0]);
        if (c[7] >= 0) a.setAttribute('data-rec', String(c[7]));
        a.addEventListener('click', function (e) {
          e.preventDefault();
          self.setTick(c[0], true);
          self.markRule(c[7]);
        });
        last.appendChild(a);
        last.appendChild(document.createTextNode(self.changeText(c).slice(a.textContent.length)));
      } else {
        last.textContent = '—';
      }
      tr.appendChild(last);
      body.appendChild(tr);
    });
    if (!rows.length) box.appendChild(el('p', 'empty', 'No social state exists at this tick.'));
  };

  // changeText mirrors SocialChange.Text in Go.
  Section.prototype.changeText = function (c) {
    var f = c.slice(8).map(this.s, this), out = 't' + c[0] + ' ' + this.s(c[4]);
    if (f.length === 2 && BLOCKS[c[2]].name === 'schedule') out += ' ' + f[0] + ' at ' + f[1];
    if (f.length === 2 && BLOCKS[c[2]].name === 'role') out += ': ' + (f[0] || 'vacant') + (f[1] ? ' (was ' + f[1] + ')' : '');
    return out + ' — ' + this.s(c[5]) + (this.s(c[6]) ? ' ← ' + this.s(c[6]) : '') + ' (trace seq ' + c[1] + ')';
  };

  // markRule marks the rule-log row of the rule evaluation at index i of
  // the embedded feed and scrolls the log to it.
  Section.prototype.markRule = function (i) {
    this.root.querySelectorAll('table.rulelog tr.linked').forEach(function (r) { r.classList.remove('linked'); });
    var tr = this.ruleByIndex.get(i);
    if (!tr) return;
    tr.classList.add('linked');
    tr.scrollIntoView({ block: 'nearest' });
  };

  Section.prototype.renderBeliefs = function (t) {
    var self = this, body = this.root.querySelector('table.beliefs tbody');
    body.textContent = '';
    this.rows(t).forEach(function (r) {
      var tr = el('tr', r.claim ? (r.golden ? 'differs' : '') : 'unheard');
      tr.setAttribute('data-holder', r.holder);
      tr.setAttribute('data-claim', r.claim);
      tr.setAttribute('data-held', r.held ? '1' : '0');
      tr.appendChild(el('td', 'c-holder', r.holder + (r.alive ? '' : ' (dead)')));
      tr.appendChild(el('td', 'c-at', r.at || '—'));
      tr.appendChild(el('td', 'c-claim', r.claim || '—'));
      ['variant', 'confidence', 'stage', 'sources'].forEach(function (k) {
        var td = el('td', 'c-' + k, r.held || k === 'stage' ? r[k] : r.claim ? 'not held' : '—');
        if (r.golden && r.golden[k] !== r[k]) td.appendChild(el('span', 'golden', 'golden: ' + (r.golden.held || k === 'stage' ? r.golden[k] || '—' : 'not held')));
        tr.appendChild(td);
      });
      var ev = el('td', 'ev');
      r.evidence.forEach(function (e) { ev.appendChild(el('div', '', self.evidenceText(r.holder, e))); });
      tr.appendChild(ev);
      body.appendChild(tr);
    });
  };

  // describe returns a feed record's kind label, outcome label and text.
  Section.prototype.describe = function (r) {
    var f = r.slice(3).map(this.s, this), fired = !!r[2];
    switch (KINDS[r[1]]) {
      case 'event':
        return ['event', 'happened', f[0] + ' (' + f[1] + ')'];
      case 'encounter':
        return ['encounter', fired ? 'met' : 'did not meet',
          f[1] + ' & ' + f[2] + ' at ' + f[0] + ': roll ' + f[3] + (fired ? ' < ' : ' ≥ ') + f[4] + (f[5] ? ' (pinned)' : '')];
      case 'transmission':
        return ['transmission', fired ? 'told' : 'declined',
          f[0] + ' → ' + f[1] + ': ' + f[3] + ' — ' + f[4] + ': ' + f[5] + (f[7] ? ', confidence ' + f[7] : '') + ' (via ' + f[6] + ')'];
      case 'rule':
        var vals = [];
        for (var i = 6; i + 1 < f.length; i += 2) vals.push(f[i] + '=' + f[i + 1]);
        return ['rule', fired ? 'fired' : 'not fired',
          f[0] + ' [' + f[1] + ']: ' + f[2] + (vals.length ? '; ' + vals.join(', ') : '') + (f[3] ? '; roll ' + f[3] + ' = ' + f[4] + ' vs ' + f[5] : '')];
      case 'supersession':
        return ['supersession', f[5] === 'kept' ? 'kept' : 'switched',
          f[0] + ': ' + f[2] + ' beat ' + f[3] + ' (via ' + f[4] + ')'];
      case 'belief':
        return ['belief', f[3], f[0] + ' ' + f[2] + ': confidence ' + f[4] + ', ' + f[5]];
    }
    return ['?', '', f.join(' ')];
  };

  Section.prototype.renderFeed = function (t) {
    var self = this, list = this.root.querySelector('ol.feed'), w = this.d.win;
    list.textContent = '';
    if (w[2] && (t < w[0] || t > w[1])) {
      var c = this.cnt.get(t);
      list.appendChild(el('li', 'empty', 'Not embedded (the feed is capped to ticks ' + w[0] + '–' + w[1] + '). This tick: ' +
        (c ? c[1] + ' encounters met, ' + c[2] + ' did not meet, ' + c[3] + ' transmissions told, ' + c[4] + ' declined, ' + c[5] + ' other records.' : 'no records.')));
      return;
    }
    var feed = this.d.feed, lo = 0, hi = feed.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (feed[mid][0] < t) lo = mid + 1; else hi = mid; }
    var n = 0;
    for (var i = lo; i < feed.length && feed[i][0] === t; i++, n++) {
      var r = feed[i], dsc = this.describe(r), li = el('li', r[2] ? 'fired' : 'declined');
      li.setAttribute('data-kind', dsc[0]);
      li.appendChild(el('span', 'out ' + (r[2] ? 'fired' : 'declined'), dsc[1]));
      li.appendChild(el('span', 'kind', dsc[0]));
      li.appendChild(el('span', 'text', dsc[2]));
      list.appendChild(li);
    }
    if (!n) list.appendChild(el('li', 'empty', 'Nothing was derived at this tick.'));
  };

  Section.prototype.buildRuleLog = function () {
    var self = this, body = this.root.querySelector('table.rulelog tbody');
    this.ruleRows = new Map();
    this.ruleByIndex = new Map();
    if (!body) return;
    this.d.feed.forEach(function (r, idx) {
      if (KINDS[r[1]] !== 'rule') return;
      var f = r.slice(3).map(self.s, self), tr = el('tr');
      var a = el('a', '', String(r[0]));
      a.href = '#' + fragment(self.name, r[0]);
      var td = el('td');
      td.appendChild(a);
      tr.appendChild(td);
      tr.appendChild(el('td', '', f[0]));
      tr.appendChild(el('td', '', f[1]));
      tr.appendChild(el('td', r[2] ? 'fired' : 'declined', r[2] ? 'fired' : 'not fired'));
      tr.appendChild(el('td', '', f[2]));
      var vals = [];
      for (var i = 6; i + 1 < f.length; i += 2) vals.push(f[i] + '=' + f[i + 1]);
      if (f[3]) vals.push('roll ' + f[3] + ' = ' + f[4] + ' vs ' + f[5]);
      tr.appendChild(el('td', '', vals.join(', ')));
      body.appendChild(tr);
      self.ruleByIndex.set(idx, tr);
      if (!self.ruleRows.has(r[0])) self.ruleRows.set(r[0], []);
      self.ruleRows.get(r[0]).push(tr);
    });
  };

  Section.prototype.setTick = function (t, remember) {
    if (!this.range) return;
    if (!isFinite(t)) t = this.min;
    t = Math.max(this.min, Math.min(this.max, Math.round(t)));
    this.tick = t;
    this.range.value = String(t);
    this.number.value = String(t);
    this.root.querySelectorAll('.now').forEach(function (e) { e.textContent = String(t); });
    this.root.querySelectorAll('line.cursor').forEach(function (l) { l.setAttribute('x1', t); l.setAttribute('x2', t); });
    this.renderBeliefs(t);
    this.renderSocial(t);
    this.renderFeed(t);
    this.ruleRows.forEach(function (rows, tick) { rows.forEach(function (r) { r.classList.toggle('here', tick === t); }); });
    if (remember) {
      var h = '#' + fragment(this.name, t);
      try { history.replaceState(null, '', h); } catch (e) { location.replace(h); }
      markCurrent(this);
    }
  };

  var sections = [], byName = new Map();
  document.querySelectorAll('section.rung').forEach(function (root) {
    var s = new Section(root);
    sections.push(s);
    byName.set(s.name, s);
    if (s.range) s.setTick(+root.getAttribute('data-default'), false);
  });

  function markCurrent(s) {
    sections.forEach(function (x) { x.root.classList.toggle('current', x === s); });
  }

  function applyHash() {
    var st = parseFragment(location.hash), s = st && byName.get(st.name);
    if (!s) return;
    s.root.querySelector('details').open = true;
    if (s.range) s.setTick(st.tick >= 0 ? st.tick : +s.root.getAttribute('data-default'), false);
    markCurrent(s);
    s.root.scrollIntoView();
  }
  window.addEventListener('hashchange', applyHash);
  applyHash();
  document.body.setAttribute('data-ready', '1');
})();
