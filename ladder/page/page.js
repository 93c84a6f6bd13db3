// The triage page's script: the as-of-tick belief table, the feed, the
// rule log, the curves' cursor and the URL fragment (#T2.1@44). It reads
// each section's embedded data (layout in the Go package's doc.go) and
// builds everything with DOM calls: no markup from data, nothing fetched.
(function () {
  'use strict';
  var KINDS = ['event', 'encounter', 'transmission', 'rule', 'supersession', 'belief'];

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
    if (!body) return;
    this.d.feed.forEach(function (r) {
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
