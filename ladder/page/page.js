// The triage page's script: every view of a section as of its scrubber's
// tick — the map, the belief table, the social state and its two-tick
// diff, the feed, the comparisons with the golden and partner runs — the
// rule log, the links from every field to its cause, search and filters,
// and the URL fragment (#T2.1@44, #T3.2@40/belief=torvar:brawl@0). It
// reads each section's embedded data (layout in the Go package's doc.go)
// when the section is first opened, and builds everything with DOM calls:
// no markup from data, nothing fetched.
(function () {
  'use strict';
  var KINDS = ['event', 'encounter', 'transmission', 'rule', 'supersession', 'belief'];
  var STAGES = ['unheard', 'heard', 'repeated', 'dormant', 'forgotten'];
  var PAGE = { beliefs: 100, feed: 200, rules: 200 };
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
  var TARGETS = ['npc', 'belief', 'trace', 'social', 'whynot'];

  // parseFragment mirrors page.ParseFragment: a name never holds a raw
  // "@", so the tick follows the first; then "/kind=value" may follow.
  function parseFragment(h) {
    h = h.replace(/^#/, '');
    if (!h) return null;
    var name = h, tick = -1, target = null, i = h.indexOf('@');
    if (i >= 0) {
      var rest = h.slice(i + 1), j = rest.indexOf('/'), d = j < 0 ? rest : rest.slice(0, j);
      if (!/^[0-9]+$/.test(d)) return null;
      tick = parseInt(d, 10);
      name = h.slice(0, i);
      if (j >= 0) {
        var kv = rest.slice(j + 1), e = kv.indexOf('=');
        if (e < 0 || TARGETS.indexOf(kv.slice(0, e)) < 0) return null;
        try { target = { kind: kv.slice(0, e), value: decodeURIComponent(kv.slice(e + 1)) }; } catch (x) { return null; }
        if (!target.value) return null;
      }
    }
    try { name = decodeURIComponent(name); } catch (x) { return null; }
    return name ? { name: name, tick: tick, target: target } : null;
  }

  function escape(s, plain) {
    var out = '', bytes = new TextEncoder().encode(s);
    for (var i = 0; i < bytes.length; i++) {
      var c = String.fromCharCode(bytes[i]);
      out += plain.test(c) ? c : '%' + (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16).toUpperCase();
    }
    return out;
  }

  // fragment mirrors page.FragmentTo.
  function fragment(name, tick, target) {
    var out = escape(name, /[A-Za-z0-9._~\/-]/);
    if (tick < 0) return out;
    out += '@' + tick;
    if (target) out += '/' + target.kind + '=' + escape(target.value, /[A-Za-z0-9._~:@-]/);
    return out;
  }

  // encounterID mirrors page.EncounterID.
  function encounterID(tick, site, a, b) { return 'encounter@' + tick + '/' + site + '/[' + a + ',' + b + ']'; }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // svg makes an SVG element in the namespace of the page's own drawings
  // (the page spells no address, not even a namespace's).
  function svg(tag, attrs) {
    var e = document.createElementNS(document.querySelector('svg').namespaceURI, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
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

  // The page-wide filters: a search text and a record kind.
  var filters = { query: '', kind: '' };
  function matches(text) { return !filters.query || text.toLowerCase().indexOf(filters.query) >= 0; }

  // Pager shows one page of a long list: "rows 1–100 of 1,040 ‹ ›".
  function Pager(box, size, onchange) {
    this.box = box; this.size = size; this.page = 0; this.onchange = onchange;
  }
  Pager.prototype.slice = function (list, want) {
    var pages = Math.max(1, Math.ceil(list.length / this.size));
    if (want !== undefined && want >= 0) this.page = Math.floor(want / this.size);
    this.page = Math.max(0, Math.min(pages - 1, this.page));
    var lo = this.page * this.size, hi = Math.min(list.length, lo + this.size), self = this;
    if (this.box) {
      this.box.textContent = '';
      if (pages > 1) {
        this.box.appendChild(el('span', 'count', (lo + 1) + '–' + hi + ' of ' + list.length));
        [['‹ previous', -1], ['next ›', 1]].forEach(function (b) {
          var btn = el('button', '', b[0]);
          btn.type = 'button';
          btn.disabled = self.page + b[1] < 0 || self.page + b[1] >= pages;
          btn.addEventListener('click', function () { self.page += b[1]; self.onchange(); });
          self.box.appendChild(btn);
        });
      }
    }
    return list.slice(lo, hi);
  };

  function Section(root) {
    this.root = root;
    this.name = root.getAttribute('data-name');
    this.details = root.querySelector('details');
    this.range = root.querySelector('input.scrub');
    this.number = root.querySelector('input.tickno');
    this.ready = false;
    this.npc = '';
    this.claim = '';
    this.tick = +root.getAttribute('data-default');
  }

  Section.prototype.s = function (i) { return this.d.s[i]; };

  // feedOf turns embedded records into objects: absolute seqs, fields as
  // strings.
  Section.prototype.feedOf = function (rows) {
    var self = this, seq = 0;
    return (rows || []).map(function (r, i) {
      seq += r[3];
      return { tick: r[0], kind: KINDS[r[1]], fired: !!r[2], seq: seq, f: r.slice(4).map(self.s, self), idx: i };
    });
  };

  // ensure reads the section's data the first time it is needed.
  Section.prototype.ensure = function () {
    if (this.ready) return;
    this.ready = true;
    var root = this.root, d = JSON.parse(root.querySelector('script.data').textContent), S = d.s, self = this;
    this.d = d;
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
    this.beliefIndex = beliefIndex;
    this.npcs = d.npc.map(function (n) { return { id: S[n[0]], changes: n[1] }; });
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
    this.feed = this.feedOf(d.feed);
    this.bySeq = new Map();
    this.beliefRecs = new Map();
    this.events = new Map();
    this.feed.forEach(function (r) {
      self.bySeq.set(r.seq, r);
      if (r.kind === 'belief') {
        var k = r.f[0] + '\u0000' + r.f[1];
        if (!self.beliefRecs.has(k)) self.beliefRecs.set(k, []);
        self.beliefRecs.get(k).push(r);
      }
      if (r.kind === 'event') self.events.set(r.f[0], r);
    });
    this.claimTick = new Map();
    (d.cl || []).forEach(function (c) { self.claimTick.set(S[c[0]], c[1]); });
    // The record that made each variant, and the memory strengths over
    // their window (doc.go: vm, str).
    this.made = new Map();
    (d.vm || []).forEach(function (m) { self.made.set(S[m[0]], m); });
    this.str = new Map();
    this.sw = d.str ? d.str.w : null;
    if (d.str) d.str.b.forEach(function (b) { self.str.set(S[b[0]] + '\u0000' + S[b[1]], b[2]); });
    // The why-not answers, as package page's WhyNot holds them.
    if (d.wn) {
      this.wn = { from: d.wn.w[0], to: d.wn.w[1], cmd: S[d.wn.c], claims: d.wn.k.map(this.s, this), pairs: new Map(), answers: d.wn.a };
      d.wn.p.forEach(function (p) { self.wn.pairs.set(S[p[0]] + '\u0000' + S[p[1]], p[2]); });
    }
    this.others = [];
    if (d.gcmp) this.others.push({ name: 'golden', bel: this.gbel, feed: this.feedOf(d.gfeed), cmp: d.gcmp });
    (d.vs || []).forEach(function (v) { self.others.push({ name: S[v.n], bel: beliefIndex(v.bel), feed: self.feedOf(v.feed), cmp: v.cmp }); });
    this.pagers = {};
    ['beliefs', 'feed', 'rules'].forEach(function (k) {
      self.pagers[k] = new Pager(root.querySelector('.pager[data-for="' + k + '"]'), PAGE[k], function () { self.render(); });
    });
    var sel = root.querySelector('select.npcfilter');
    this.npcs.forEach(function (n) { sel.appendChild(el('option', '', n.id)); });
    sel.addEventListener('change', function () { self.setNPC(sel.value, true); });
    this.range.addEventListener('input', function () { self.setTick(+self.range.value, true); });
    this.number.addEventListener('change', function () { self.setTick(+self.number.value, true); });
    var from = root.querySelector('input.difffrom');
    if (from) from.addEventListener('change', function () { self.renderDiff(self.tick); });
    root.querySelectorAll('input.alignscrub').forEach(function (box) {
      box.addEventListener('change', function () { if (box.checked) self.alignOthers(); });
    });
    this.buildMap();
    this.renderComparisons();
  };

  Section.prototype.state = function (index, h, c, t) {
    var m = index && index.get(h), ch = m && m.get(c), st = ch ? at(ch, t) : null;
    if (!st || !st[1]) return { held: false, variant: '', confidence: '', stage: '', sources: '' };
    return { held: true, variant: this.s(st[2]), confidence: this.s(st[3]), stage: this.s(st[4]), sources: this.s(st[5]) };
  };

  Section.prototype.presence = function (n, t) {
    var p = at(n.changes, t) || [0, 1, -1];
    return { alive: !!p[1], at: p[2] >= 0 ? this.s(p[2]) : '' };
  };

  // rows mirrors Section.BeliefsAt in Go.
  Section.prototype.rows = function (t) {
    var self = this, rows = [];
    this.npcs.forEach(function (n) {
      var h = n.id, p = self.presence(n, t), first = rows.length;
      var base = { holder: h, alive: p.alive, at: p.at };
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
        var r = Object.assign({}, base, a, { claim: c, evidence: [] }), x = a.held ? self.strengthAt(h, c, t) : null;
        r.verbatim = x ? x[0] : '';
        r.gist = x ? x[1] : '';
        (self.ev.get(h + '\u0000' + c) || []).forEach(function (e) { if (e[0] <= t) r.evidence.push(e); });
        if (g && (g.held !== a.held || g.variant !== a.variant || g.confidence !== a.confidence || g.stage !== a.stage || g.sources !== a.sources)) r.golden = g;
        rows.push(r);
        held++;
      });
      if (!held) rows.push(Object.assign({}, base, { claim: '', held: false, variant: '', confidence: '', stage: 'unheard', sources: '', evidence: [] }));
      rows[first].first = true;
    });
    return rows;
  };

  // strengthAt returns a belief's verbatim and gist at t, null outside
  // the embedded window.
  Section.prototype.strengthAt = function (h, c, t) {
    var ch = this.str.get(h + '\u0000' + c);
    if (!ch || t < this.sw[0] || t > this.sw[1]) return null;
    var st = at(ch, t);
    return st ? [this.s(st[1]), this.s(st[2])] : null;
  };

  Section.prototype.evidenceParts = function (holder, e) {
    var type = this.s(e[1]), chain = e[2].map(this.s, this), via = this.s(e[3]);
    var who = type === 'witnessed' ? 'saw it' : chain.concat([holder]).join(' → ');
    return ['t' + e[0] + ' ' + type + ': ' + who + ' via ', via, ', ' + this.s(e[4]) + ' at ' + this.s(e[5]) + (e[6] ? '' : ' (not counted)')];
  };

  // carried returns the embedded records that carried one piece of
  // evidence: the encounter (with its roll) and the transmission, or the
  // event a witness saw. The first is the one a link names.
  Section.prototype.carried = function (holder, claim, e) {
    var t = e[0], via = this.s(e[3]), out = [], enc = null;
    this.feedAt(t).forEach(function (r) {
      if (r.kind === 'encounter' && encounterID(r.tick, r.f[0], r.f[1], r.f[2]) === via) enc = r;
      else if (r.kind === 'event' && r.f[0] === via) out.unshift(r);
      else if (r.kind === 'transmission' && r.f[6] === via && r.f[1] === holder && r.f[2] === claim) out.push(r);
    });
    if (enc) out.unshift(enc);
    return out;
  };

  // link makes an in-page link to a tick and records; following it moves
  // the scrubber there and marks them.
  Section.prototype.link = function (text, tick, recs, target) {
    var self = this, a = el('a', '', text);
    if (!target && recs && recs.length) target = { kind: 'trace', value: String(recs[0].seq) };
    a.href = '#' + fragment(this.name, tick, target || null);
    a.addEventListener('click', function (ev) {
      ev.preventDefault();
      self.go(tick, target, recs);
    });
    return a;
  };

  // go moves to a tick, opens a target there and marks records.
  Section.prototype.go = function (tick, target, recs) {
    this.setTick(tick, false);
    this.target = target || null;
    this.remember();
    if (target) this.open(target);
    if (recs && recs.length) this.markRecords(recs.map(function (r) { return r.seq; }));
  };

  Section.prototype.beliefRow = function (r, t) {
    var self = this, tr = el('tr', r.claim ? (r.golden ? 'differs' : '') : 'unheard');
    tr.setAttribute('data-holder', r.holder);
    tr.setAttribute('data-claim', r.claim);
    tr.setAttribute('data-held', r.held ? '1' : '0');
    var who = el('td', 'c-holder');
    who.appendChild(this.link(r.holder, t, null, { kind: 'npc', value: r.holder }));
    if (!r.alive) who.appendChild(document.createTextNode(' (dead)'));
    if (r.first) this.whyNotClaims(r.holder, t).forEach(function (c) { who.appendChild(self.whyNotLink(r.holder, c, t)); });
    tr.appendChild(who);
    tr.appendChild(el('td', 'c-at', r.at || '—'));
    var claim = el('td', 'c-claim');
    if (r.claim) {
      var ct = this.claimTick.get(r.claim), evt = this.events.get(r.claim);
      claim.appendChild(evt ? this.link(r.claim, evt.tick, [evt]) : ct !== undefined ? this.link(r.claim, ct) : document.createTextNode(r.claim));
    } else claim.textContent = '—';
    tr.appendChild(claim);
    ['variant', 'confidence', 'verbatim', 'gist', 'stage', 'sources'].forEach(function (k) {
      var v = r.held || k === 'stage' ? r[k] : r.claim ? 'not held' : '—', td = el('td', 'c-' + k);
      if (r.held && (k === 'verbatim' || k === 'gist') && !v) {
        v = '·';
        td.title = 'not embedded at this tick: the page keeps the strengths of ticks ' + self.sw[0] + '–' + self.sw[1] + '; dense.csv has every tick';
      }
      td.appendChild(r.held ? self.causeLink(k, v, r, t) : document.createTextNode(v));
      if (r.golden && k in r.golden && r.golden[k] !== r[k]) td.appendChild(el('span', 'golden', 'golden: ' + (r.golden.held || k === 'stage' ? r.golden[k] || '—' : 'not held')));
      tr.appendChild(td);
    });
    var ev = el('td', 'ev');
    r.evidence.forEach(function (e) {
      var parts = self.evidenceParts(r.holder, e), div = el('div', 'evidence' + (e[6] ? ' counted' : ''));
      div.appendChild(document.createTextNode(parts[0]));
      var a = self.link(parts[1], e[0], self.carried(r.holder, r.claim, e));
      a.className = 'via';
      div.appendChild(a);
      div.appendChild(document.createTextNode(parts[2]));
      ev.appendChild(div);
    });
    tr.appendChild(ev);
    return tr;
  };

  Section.prototype.lastBeliefRecord = function (h, c, t) {
    var recs = this.beliefRecs.get(h + '\u0000' + c) || [], last = null;
    recs.forEach(function (r) { if (r.tick <= t) last = r; });
    return last;
  };

  // setBy returns the belief record that gave a belief's field (2: the
  // variant, 4: the confidence) the value it has at t: the first of the
  // last run of records up to t that all carry that value.
  Section.prototype.setBy = function (h, c, t, field) {
    var recs = (this.beliefRecs.get(h + '\u0000' + c) || []).filter(function (r) { return r.tick <= t; }), i = recs.length - 1;
    if (i < 0) return null;
    while (i > 0 && recs[i - 1].f[field] === recs[i].f[field]) i--;
    return recs[i];
  };

  // variantCause returns the record that made a holder's variant what it
  // is at t: the contest it switched to it in, else the record that made
  // the variant itself (its mutation, a witness's account, its event).
  Section.prototype.variantCause = function (h, c, v, t) {
    var got = this.setBy(h, c, t, 2), won = null;
    if (got && got.f[2] === v) {
      this.feedAt(got.tick).forEach(function (r) {
        if (r.kind === 'supersession' && r.seq < got.seq && r.f[0] === h && r.f[1] === c && r.f[2] === v && r.f[5] === 'switched') won = r;
      });
    }
    var m = this.made.get(v);
    return won || (m ? this.bySeq.get(m[2]) || null : null);
  };

  // causeLink writes a held belief's field linked to its cause: the
  // variant to what made it, confidence and stage to the belief record
  // that last set them, sources to the evidence counted.
  Section.prototype.causeLink = function (k, v, r, t) {
    var self = this, rec = null;
    if (k === 'variant') rec = this.variantCause(r.holder, r.claim, v, t);
    if (k === 'confidence') rec = this.setBy(r.holder, r.claim, t, 4);
    if (k === 'stage') rec = this.lastBeliefRecord(r.holder, r.claim, t);
    if (rec) return this.link(v, rec.tick, [rec]);
    if (k !== 'sources' || !r.evidence.some(function (e) { return e[6]; })) return document.createTextNode(v);
    var a = el('a', 'sources', v), tg = { kind: 'belief', value: r.holder + ':' + r.claim };
    a.href = '#' + fragment(this.name, t, tg);
    a.addEventListener('click', function (ev) {
      ev.preventDefault();
      self.go(t, tg);
      self.mark([].slice.call(self.root.querySelectorAll('table.beliefs tr[data-holder="' + CSS.escape(r.holder) + '"][data-claim="' + CSS.escape(r.claim) + '"] div.evidence.counted')));
    });
    return a;
  };

  Section.prototype.renderBeliefs = function (t) {
    var self = this, body = this.root.querySelector('table.beliefs tbody');
    var rows = this.rows(t).filter(function (r) {
      if (self.npc && r.holder !== self.npc) return false;
      return !filters.query || matches([r.holder, r.at, r.claim, r.variant, r.stage].join(' ') + ' ' + r.evidence.map(function (e) { return self.evidenceParts(r.holder, e).join(''); }).join(' '));
    });
    var want = -1, tg = this.target;
    if (tg && tg.kind === 'belief') {
      var i = tg.value.indexOf(':'), h = tg.value.slice(0, i), c = tg.value.slice(i + 1);
      want = rows.findIndex(function (r) { return r.holder === h && r.claim === c; });
    }
    body.textContent = '';
    this.pagers.beliefs.slice(rows, want).forEach(function (r) { body.appendChild(self.beliefRow(r, t)); });
    if (!rows.length) body.appendChild(el('tr', 'empty')).appendChild(el('td', '', 'No row matches the filters.')).colSpan = 10;
  };

  // feedAt returns the embedded records of tick t.
  Section.prototype.feedAt = function (t, feed) {
    feed = feed || this.feed;
    var lo = 0, hi = feed.length, out = [];
    while (lo < hi) { var mid = (lo + hi) >> 1; if (feed[mid].tick < t) lo = mid + 1; else hi = mid; }
    for (var i = lo; i < feed.length && feed[i].tick === t; i++) out.push(feed[i]);
    return out;
  };

  // describe returns a feed record's kind label, outcome label and text.
  Section.prototype.describe = function (r) {
    var f = r.f, fired = r.fired;
    switch (r.kind) {
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

  // involves reports whether a record names the NPC in any field.
  function involves(r, npc) { return !npc || r.f.indexOf(npc) >= 0 || r.f.some(function (x) { return x.split(/[\/\[\],<>-]+/).indexOf(npc) >= 0; }); }

  Section.prototype.shownRecord = function (r) {
    if (filters.kind && r.kind !== filters.kind) return false;
    if (!involves(r, this.npc)) return false;
    if (!filters.query) return true;
    var dsc = this.describe(r);
    return matches(dsc[0] + ' ' + dsc[2]);
  };

  Section.prototype.feedItem = function (r) {
    var dsc = this.describe(r), li = el('li', r.fired ? 'fired' : 'declined');
    li.setAttribute('data-kind', dsc[0]);
    li.setAttribute('data-seq', String(r.seq));
    li.appendChild(el('span', 'out ' + (r.fired ? 'fired' : 'declined'), dsc[1]));
    li.appendChild(el('span', 'kind', dsc[0]));
    li.appendChild(this.refText(r, dsc[2]));
    li.appendChild(el('span', 'seq', ' seq ' + r.seq));
    return li;
  };

  // refText writes a feed record's text (describe's, unchanged) with each
  // record it refers to linked: a transmission's or a contest's encounter,
  // a rule's subject and the record its roll decided, what a belief
  // change came from.
  Section.prototype.refText = function (r, text) {
    var self = this, span = el('span', 'text'), f = r.f, rest = text;
    // put writes text up to ref, then ref linked to what it names.
    function put(ref, write) {
      var i = rest.indexOf(ref);
      if (!ref || i < 0) return;
      span.appendChild(document.createTextNode(rest.slice(0, i)));
      write(ref);
      rest = rest.slice(i + ref.length);
    }
    function to(recs) { return function (ref) { span.appendChild(recs.length ? self.ref(ref, r.tick, recs) : document.createTextNode(ref)); }; }
    switch (r.kind) {
      case 'transmission':
        put('via ' + f[6], function () { span.appendChild(document.createTextNode('via ')); to(self.encounter(r.tick, f[6]))(f[6]); });
        break;
      case 'supersession':
        put('via ' + f[4], function () { span.appendChild(document.createTextNode('via ')); to(self.encounter(r.tick, f[4]))(f[4]); });
        break;
      case 'rule':
        put('[' + f[1] + ']', function () {
          span.appendChild(document.createTextNode('['));
          var sub = el('span', 'subject');
          self.subjectLinks(sub, f[1], r.tick);
          span.appendChild(sub);
          span.appendChild(document.createTextNode(']'));
        });
        if (f[3]) put('roll ' + f[3], function () { span.appendChild(document.createTextNode('roll ')); to(self.rolled(r.tick, f[3]))(f[3]); });
        break;
      case 'belief':
        var cause = self.beliefCause(r);
        if (cause) put(f[2], to([cause]));
        break;
    }
    span.appendChild(document.createTextNode(rest));
    return span;
  };

  // ref is a link from one record to another: following it marks the
  // target in the feed (and the rule log).
  Section.prototype.ref = function (text, tick, recs) {
    var a = this.link(text, recs[0].tick, recs);
    a.className = 'ref';
    a.setAttribute('data-to', String(recs[0].seq));
    return a;
  };

  // encounter returns the encounter record of tick t with an id, as a
  // list (empty when it is not embedded, or for "injected").
  Section.prototype.encounter = function (t, id) {
    return this.feedAt(t).filter(function (x) { return x.kind === 'encounter' && encounterID(x.tick, x.f[0], x.f[1], x.f[2]) === id; });
  };

  // rolled returns the record a rule's roll decided: an encounter's roll
  // is keyed by the encounter's id; a mutation's roll
  // (mutation@t/site/[teller,listener,claim]) decided the transmission
  // from that teller to that listener that follows it.
  Section.prototype.rolled = function (t, key) {
    var enc = this.encounter(t, key);
    if (enc.length) return enc;
    var m = /^[a-z-]+@\d+\/[^\/]+\/\[([^,\]]+),([^,\]]+),([^\]]+)\]$/.exec(key);
    if (!m) return [];
    return this.feedAt(t).filter(function (x) { return x.kind === 'transmission' && x.f[0] === m[1] && x.f[1] === m[2] && x.f[2] === m[3]; }).slice(0, 1);
  };

  // beliefCause returns the record a belief change came from: the
  // transmission, contest or rule evaluation about that holder and claim
  // just before it in the same tick; null for a change time caused.
  Section.prototype.beliefCause = function (r) {
    var h = r.f[0], c = r.f[1], cause = null;
    this.feedAt(r.tick).forEach(function (x) {
      if (x.seq >= r.seq) return;
      if ((x.kind === 'transmission' && x.fired && x.f[1] === h && x.f[2] === c) ||
        (x.kind === 'supersession' && x.f[0] === h && x.f[1] === c) ||
        (x.kind === 'rule' && x.f[1] === h + '/' + c)) cause = x;
    });
    return cause;
  };

  Section.prototype.renderFeed = function (t) {
    var self = this, list = this.root.querySelector('ol.feed'), w = this.d.win;
    list.textContent = '';
    if (w[2] && (t < w[0] || t > w[1])) {
      var c = this.cnt.get(t);
      this.pagers.feed.slice([]);
      list.appendChild(el('li', 'empty', 'Not embedded (the feed is capped to ticks ' + w[0] + '–' + w[1] + '). This tick: ' +
        (c ? c[1] + ' encounters met, ' + c[2] + ' did not meet, ' + c[3] + ' transmissions told, ' + c[4] + ' declined, ' + c[5] + ' other records.' : 'no records.')));
      return;
    }
    var all = this.feedAt(t), recs = all.filter(function (r) { return self.shownRecord(r); });
    var want = this.want ? recs.findIndex(function (r) { return self.want.indexOf(r.seq) >= 0; }) : -1;
    this.pagers.feed.slice(recs, want).forEach(function (r) { list.appendChild(self.feedItem(r)); });
    if (!all.length) list.appendChild(el('li', 'empty', 'Nothing was derived at this tick.'));
    else if (!recs.length) list.appendChild(el('li', 'empty', 'No record of this tick matches the filters.'));
  };

  // subjectLinks writes a rule evaluation's subject with each part it
  // names linked: an NPC, a claim's event, a holder's belief.
  Section.prototype.subjectLinks = function (td, subject, t) {
    var self = this, parts = subject.split(/(\/|->|<-|:)/), ids = new Set(this.npcs.map(function (n) { return n.id; }));
    for (var i = 0; i < parts.length; i++) {
      var p = parts[i];
      if (ids.has(p) && parts[i + 1] === '/' && self.bel.get(p) && self.bel.get(p).has(parts[i + 2])) {
        td.appendChild(self.link(p + '/' + parts[i + 2], t, null, { kind: 'belief', value: p + ':' + parts[i + 2] }));
        i += 2;
      } else if (ids.has(p)) {
        td.appendChild(self.link(p, t, null, { kind: 'npc', value: p }));
      } else if (self.events.has(p)) {
        var e = self.events.get(p);
        td.appendChild(self.link(p, e.tick, [e]));
      } else td.appendChild(document.createTextNode(p));
    }
  };

  // renderRules shows the log as of t: the tick's evaluations (paged
  // when many), and buttons to the previous and the next tick that has
  // any, with their counts.
  Section.prototype.renderRules = function (t) {
    var self = this, body = this.root.querySelector('table.rulelog tbody');
    if (!body) return;
    // The rows that match the filters, counted by tick.
    var key = this.npc + '\u0000' + filters.query;
    if (this.ruleKey !== key) {
      this.ruleKey = key;
      this.ruleList = this.feed.filter(function (r) { return r.kind === 'rule' && involves(r, self.npc) && (!filters.query || matches(self.describe(r)[2])); });
      this.ruleCount = new Map();
      this.ruleList.forEach(function (r) { self.ruleCount.set(r.tick, (self.ruleCount.get(r.tick) || 0) + 1); });
    }
    var rules = this.ruleList.filter(function (r) { return r.tick === t; }), prev = -1, next = -1;
    this.ruleCount.forEach(function (_, x) {
      if (x < t && x > prev) prev = x;
      if (x > t && (next < 0 || x < next)) next = x;
    });
    var nav = this.root.querySelector('.rulenav');
    nav.textContent = '';
    nav.appendChild(el('span', 'count', rules.length + ' evaluation' + (rules.length === 1 ? '' : 's') + ' at this tick. '));
    [['prev', prev, '‹ tick '], ['next', next, 'tick ']].forEach(function (b) {
      if (b[1] < 0) return;
      var n = self.ruleCount.get(b[1]), btn = el('button', b[0], b[0] === 'prev' ? b[2] + b[1] + ' (' + n + ')' : b[2] + b[1] + ' (' + n + ') ›');
      btn.type = 'button';
      btn.setAttribute('data-tick', String(b[1]));
      btn.addEventListener('click', function () { self.setTick(b[1], true); });
      nav.appendChild(btn);
    });
    var want = -1;
    if (this.want) want = rules.findIndex(function (r) { return self.want.indexOf(r.seq) >= 0; });
    body.textContent = '';
    if (!rules.length) body.appendChild(el('tr', 'empty')).appendChild(el('td', '', 'No rule evaluation at this tick' + (self.npc || filters.query ? ' matches the filters.' : '.'))).colSpan = 6;
    this.pagers.rules.slice(rules, want).forEach(function (r) {
      var f = r.f, tr = el('tr');
      tr.setAttribute('data-seq', String(r.seq));
      var td = el('td');
      td.appendChild(self.link(String(r.tick), r.tick, [r]));
      tr.appendChild(td);
      tr.appendChild(el('td', '', f[0]));
      var subj = el('td', 'subject');
      self.subjectLinks(subj, f[1], r.tick);
      tr.appendChild(subj);
      tr.appendChild(el('td', r.fired ? 'fired' : 'declined', r.fired ? 'fired' : 'not fired'));
      tr.appendChild(el('td', '', f[2]));
      var vals = [];
      for (var i = 6; i + 1 < f.length; i += 2) vals.push(f[i] + '=' + f[i + 1]);
      var cell = el('td', '', vals.join(', '));
      if (f[3]) {
        // The roll a rule made is in its own record; an encounter's roll
        // key is the encounter's id.
        cell.appendChild(document.createTextNode((vals.length ? ', ' : '') + 'roll '));
        var rolled = self.rolled(r.tick, f[3]);
        cell.appendChild(rolled.length ? self.link(f[3], r.tick, rolled) : document.createTextNode(f[3]));
        cell.appendChild(document.createTextNode(' = ' + f[4] + ' vs ' + f[5]));
      }
      tr.appendChild(cell);
      body.appendChild(tr);
    });
  };

  // socialState returns a social record's cells at tick t, null when it
  // has no track.
  Section.prototype.socialState = function (index, k, t) {
    var x = index && index.get(k), st = x ? at(x.changes, t) : null;
    return st ? st.slice(1).map(this.s, this) : null;
  };

  // whereAt returns where an NPC is at the end of tick t.
  Section.prototype.whereAt = function (npc, t) {
    var n = this.npcs.find(function (x) { return x.id === npc; });
    return n ? this.presence(n, t).at : '';
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
    var rows = this.socialRows(t).filter(function (r) {
      return (!self.npc || r.key.split('/').indexOf(self.npc) >= 0) && matches(r.block.name + ' ' + r.key + ' ' + r.values.join(' '));
    }), tables = new Map();
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
        self.appendChange(last, r.last);
      } else {
        last.textContent = '—';
      }
      tr.appendChild(last);
      body.appendChild(tr);
    });
    if (!rows.length) box.appendChild(el('p', 'empty', 'No social state exists at this tick' + (self.npc || filters.query ? ' that matches the filters.' : '.')));
  };

  // ruleLink links a social change's tick: following it moves the
  // scrubber there and marks the rule evaluation behind the change.
  Section.prototype.ruleLink = function (c) {
    var self = this, a = el('a', '', 't' + c[0]), rec = c[7] >= 0 ? this.feed[c[7]] : null;
    a.href = '#' + fragment(self.name, c[0], rec ? { kind: 'trace', value: String(rec.seq) } : null);
    if (c[7] >= 0) a.setAttribute('data-rec', String(c[7]));
    a.addEventListener('click', function (e) {
      e.preventDefault();
      self.setTick(c[0], true);
      self.markRule(c[7]);
    });
    return a;
  };

  // appendChange writes a social change's text (changeText) with its tick
  // linked to the rule evaluation behind it and its trigger
  // ("← killing@10") to the trigger's event.
  Section.prototype.appendChange = function (box, c) {
    var a = this.ruleLink(c), text = this.changeText(c).slice(a.textContent.length), cause = this.s(c[6]);
    var evt = cause && this.events.get(cause), i = evt ? text.indexOf(' ← ' + cause) : -1;
    box.appendChild(a);
    if (i < 0) {
      box.appendChild(document.createTextNode(text));
      return;
    }
    box.appendChild(document.createTextNode(text.slice(0, i + 3)));
    var t = this.link(cause, evt.tick, [evt]);
    t.className = 'trigger';
    box.appendChild(t);
    box.appendChild(document.createTextNode(text.slice(i + 3 + cause.length)));
  };

  // changeText mirrors SocialChange.Text in Go.
  Section.prototype.changeText = function (c) {
    var f = c.slice(8).map(this.s, this), out = 't' + c[0] + ' ' + this.s(c[4]);
    if (f.length === 2 && BLOCKS[c[2]].name === 'schedule') out += ' ' + f[0] + ' at ' + f[1];
    if (f.length === 2 && BLOCKS[c[2]].name === 'role') out += ': ' + (f[0] || 'vacant') + (f[1] ? ' (was ' + f[1] + ')' : '');
    return out + ' — ' + this.s(c[5]) + (this.s(c[6]) ? ' ← ' + this.s(c[6]) : '') + ' (trace seq ' + c[1] + ')';
  };

  // renderDiff lists every social change after the "from" tick up to t:
  // the page's form of `ladder diff -from -to`.
  Section.prototype.renderDiff = function (t) {
    var list = this.root.querySelector('ol.socialdiff'), from = this.root.querySelector('input.difffrom'), self = this;
    if (!list) return;
    list.textContent = '';
    var lo = +from.value, n = 0;
    (this.d.sch || []).forEach(function (c) {
      if (c[0] <= lo || c[0] > t) return;
      var b = BLOCKS[c[2]], li = el('li');
      li.setAttribute('data-block', b.name);
      li.appendChild(el('span', 'block', b.name + ' ' + self.s(c[3]) + ': '));
      self.appendChange(li, c);
      list.appendChild(li);
      n++;
    });
    if (!n) list.appendChild(el('li', 'empty', lo >= t ? 'Choose a tick before the scrubber\'s.' : 'No social change between tick ' + lo + ' and tick ' + t + '.'));
  };

  // markRule marks the rule-log row of the rule evaluation at index i of
  // the embedded feed and scrolls the log to it.
  Section.prototype.markRule = function (i) {
    var rec = this.feed[i];
    if (!rec) return;
    this.want = [rec.seq];
    this.renderRules(this.tick);
    this.want = null;
    this.root.querySelectorAll('table.rulelog tr.linked').forEach(function (r) { r.classList.remove('linked'); });
    var tr = this.root.querySelector('table.rulelog tr[data-seq="' + rec.seq + '"]');
    if (!tr) return;
    tr.classList.add('linked');
    tr.scrollIntoView({ block: 'nearest' });
  };

  // markRecords marks the feed (and rule log) rows of records by seq,
  // showing the page of the list that holds them, and scrolls to the
  // first.
  Section.prototype.markRecords = function (seqs) {
    this.want = seqs;
    this.renderFeed(this.tick);
    this.renderRules(this.tick);
    this.want = null;
    var rows = [], root = this.root;
    seqs.forEach(function (s) { root.querySelectorAll('[data-seq="' + s + '"]').forEach(function (e) { rows.push(e); }); });
    this.mark(rows);
  };

  Section.prototype.mark = function (els) {
    this.root.querySelectorAll('.target').forEach(function (e) { e.classList.remove('target'); });
    els.forEach(function (e) { e.classList.add('target'); });
    if (els[0]) els[0].scrollIntoView({ block: 'center' });
  };

  // open shows what a target names at the current tick.
  Section.prototype.open = function (tg) {
    var root = this.root;
    this.target = tg;
    switch (tg.kind) {
      case 'npc':
        this.setNPC(tg.value, false);
        this.mark([].slice.call(root.querySelectorAll('table.beliefs tr[data-holder="' + CSS.escape(tg.value) + '"]'))
          .concat([].slice.call(root.querySelectorAll('g.dots circle[data-npc="' + CSS.escape(tg.value) + '"]'))));
        break;
      case 'belief':
        this.renderBeliefs(this.tick);
        var i = tg.value.indexOf(':');
        this.mark([].slice.call(root.querySelectorAll('table.beliefs tr[data-holder="' + CSS.escape(tg.value.slice(0, i)) + '"][data-claim="' + CSS.escape(tg.value.slice(i + 1)) + '"]')));
        break;
      case 'trace':
        var rec = this.bySeq.get(+tg.value);
        if (rec && rec.tick !== this.tick) this.setTick(rec.tick, false);
        this.markRecords([+tg.value]);
        break;
      case 'whynot':
        this.renderWhyNot(this.tick);
        this.mark([root.querySelector('.panel.whynot')]);
        break;
      case 'social':
        var j = tg.value.indexOf('/');
        this.mark([].slice.call(root.querySelectorAll('table.social[data-block="' + CSS.escape(tg.value.slice(0, j)) + '"] tr[data-key="' + CSS.escape(tg.value.slice(j + 1)) + '"]')));
        break;
    }
  };

  // whyNotAt mirrors Section.WhyNotAt in Go: an answer's lines at t,
  // null lines while the NPC holds the claim, embedded false at a tick
  // the section keeps no answers for.
  Section.prototype.whyNotAt = function (npc, claim, t) {
    var w = this.wn, ch = w && w.pairs.get(npc + '\u0000' + claim);
    if (!ch || t < w.from || t > w.to) return { embedded: false };
    var c = at(ch, t);
    if (!c || c[1] < 0) return { embedded: true, lines: null };
    return { embedded: true, lines: w.answers[c[1]][1].map(this.s, this) };
  };

  // whyNotClaims are the claims an NPC does not hold at t that a "why
  // not?" is offered for: the map's claim when one is chosen, else every
  // claim of the run.
  Section.prototype.whyNotClaims = function (npc, t) {
    var self = this, w = this.wn;
    if (!w) return [];
    var n = this.npcs.find(function (x) { return x.id === npc; });
    return (this.claim ? [this.claim] : w.claims).filter(function (c) {
      var a = self.whyNotAt(npc, c, t);
      return a.embedded ? a.lines !== null : !(self.presence(n, t).alive && self.state(self.bel, npc, c, t).held);
    });
  };

  Section.prototype.whyNotLink = function (npc, claim, t) {
    var self = this, a = el('a', 'whynot', 'why not ' + claim + '?');
    a.href = '#' + fragment(this.name, t, { kind: 'whynot', value: npc + ':' + claim });
    a.addEventListener('click', function (ev) { ev.preventDefault(); self.showWhyNot(npc, claim); });
    return a;
  };

  Section.prototype.showWhyNot = function (npc, claim) {
    this.target = { kind: 'whynot', value: npc + ':' + claim };
    this.remember();
    this.open(this.target);
  };

  // renderWhyNot shows the answer the target asks for at t: the lines
  // `ladder why-not` writes under its heading, each trace line linked to
  // its record in the feed; at a tick with no answer kept, the command.
  Section.prototype.renderWhyNot = function (t) {
    var self = this, panel = this.root.querySelector('.panel.whynot'), tg = this.target;
    if (!panel) return;
    panel.hidden = !(tg && tg.kind === 'whynot');
    if (panel.hidden) return;
    var i = tg.value.indexOf(':'), npc = tg.value.slice(0, i), claim = tg.value.slice(i + 1);
    panel.querySelector('.wnq').textContent = 'Why doesn\'t ' + npc + ' hold ' + claim + ' at tick ' + t + '?';
    var list = panel.querySelector('ol.whynot'), a = this.whyNotAt(npc, claim, t);
    list.textContent = '';
    if (!a.embedded) {
      var li = list.appendChild(el('li', 'command', 'The page keeps no answer for this tick; the command gives it: '));
      li.appendChild(el('code', '', this.wn.cmd + ' -npc ' + npc + ' -claim ' + claim + ' -at ' + t));
      return;
    }
    if (!a.lines) {
      list.appendChild(el('li', 'holds', npc + ' holds ' + claim + ' at this tick: its evidence is in the belief table.'));
      return;
    }
    a.lines.forEach(function (line, k) {
      var li = list.appendChild(el('li', k ? 'step' : 'summary')), text = line.trim(), last = 0, m, ref = /trace\.jsonl:(\d+)/g;
      while ((m = ref.exec(text)) !== null) {
        li.appendChild(document.createTextNode(text.slice(last, m.index)));
        var rec = self.bySeq.get(+m[1] - 2);
        li.appendChild(rec ? self.link(m[0], rec.tick, [rec]) : document.createTextNode(m[0]));
        last = m.index + m[0].length;
      }
      li.appendChild(document.createTextNode(text.slice(last)));
    });
  };

  Section.prototype.setNPC = function (npc, remember) {
    this.npc = npc;
    var sel = this.root.querySelector('select.npcfilter');
    if (sel) sel.value = npc;
    this.render();
    if (remember) {
      this.target = npc ? { kind: 'npc', value: npc } : null;
      this.remember();
    }
  };

  // set changes an attribute only when its value changes: a thousand dots
  // redraw as the scrubber moves, most of them where they were.
  function set(e, k, v) { if (e.getAttribute(k) !== v) e.setAttribute(k, v); }

  // buildMap draws a dot per NPC; renderMap places and colours them.
  Section.prototype.buildMap = function () {
    var self = this, m = this.d.map, box = this.root.querySelector('svg.mapview');
    if (!m || !box) return;
    this.places = new Map();
    m.pl.forEach(function (p) { self.places.set(self.s(p[0]), [p[1], p[2]]); });
    this.carriers = (m.car || []).map(this.s, this);
    var sel = this.root.querySelector('select.mapclaim'), claims = new Set();
    this.bel.forEach(function (cs) { cs.forEach(function (_, c) { claims.add(c); }); });
    Array.from(claims).sort().forEach(function (c) { sel.appendChild(el('option', '', c)); });
    sel.addEventListener('change', function () { self.claim = sel.value; self.renderMap(self.tick); });
    var dots = box.querySelector('g.dots');
    this.dots = new Map();
    this.npcs.forEach(function (n) {
      var c = svg('circle', { r: 5, 'data-npc': n.id, tabindex: 0 });
      c.appendChild(svg('title', {}));
      c.addEventListener('click', function () {
        var lacks = c.getAttribute('data-stage') === 'unheard' && self.whyNotClaims(n.id, self.tick);
        if (lacks && lacks.length) return self.showWhyNot(n.id, lacks[0]);
        self.setNPC(n.id, true);
        self.open({ kind: 'npc', value: n.id });
      });
      dots.appendChild(c);
      self.dots.set(n.id, c);
    });
  };

  // stageOf is an NPC's stage at t for the map's claim, or of its
  // strongest belief (the highest confidence, the first claim on a tie).
  Section.prototype.stageOf = function (h, t) {
    var self = this, m = this.bel.get(h);
    if (!m) return ['unheard', ''];
    if (this.claim) {
      var st = this.state(this.bel, h, this.claim, t);
      return st.held ? [st.stage, this.claim] : ['unheard', ''];
    }
    if (!m.sorted) m.sorted = Array.from(m.keys()).sort();
    var best = null, bestConf = 0;
    m.sorted.forEach(function (c) {
      var st = self.state(self.bel, h, c, t);
      if (st.held && (!best || +st.confidence > bestConf)) { best = [st.stage, c]; bestConf = +st.confidence; }
    });
    return best || ['unheard', ''];
  };

  Section.prototype.renderMap = function (t) {
    var self = this, box = this.root.querySelector('svg.mapview');
    if (!box || !this.dots) return;
    var crowd = new Map(), counts = {}, gone = 0;
    STAGES.forEach(function (s) { counts[s] = 0; });
    this.npcs.forEach(function (n) {
      var p = self.presence(n, t), c = self.dots.get(n.id), pos = p.alive && self.places.get(p.at);
      var st = self.stageOf(n.id, t);
      counts[st[0]] = (counts[st[0]] || 0) + 1;
      if (!pos) { set(c, 'class', 'gone'); gone++; return; }
      // Dots at one place spiral out from it, in id order.
      var k = crowd.get(p.at) || 0, a = k * 2.39996, r = k ? 7 * Math.sqrt(k) : 0;
      crowd.set(p.at, k + 1);
      set(c, 'cx', (pos[0] + r * Math.cos(a)).toFixed(1));
      set(c, 'cy', (pos[1] - 10 + r * Math.sin(a)).toFixed(1));
      set(c, 'class', 'stage-' + st[0] + (self.npc === n.id ? ' chosen' : '') + (self.carriers.indexOf(n.id) >= 0 ? ' carrier' : ''));
      set(c, 'data-stage', st[0]);
      set(c, 'data-at', p.at);
      var title = n.id + ' at ' + p.at + ': ' + st[0] + (st[1] ? ' (' + st[1] + ')' : '') + (st[0] === 'unheard' && self.wn ? ' — click: why not?' : '');
      if (c.firstChild.textContent !== title) c.firstChild.textContent = title;
    });
    this.root.querySelectorAll('.legend b.n').forEach(function (b) { b.textContent = String(counts[b.getAttribute('data-stage')] || 0); });
    var off = this.root.querySelector('.legend .off');
    if (off) off.textContent = gone ? gone + ' of ' + this.npcs.length + ' are not on the map at this tick (dead, or nowhere their schedule puts them)' : '';
    var routes = box.querySelector('g.routes');
    routes.textContent = '';
    this.carriers.forEach(function (id) {
      var n = self.npcs.find(function (x) { return x.id === id; }), pts = [], last = '';
      n.changes.forEach(function (ch) {
        if (ch[0] > t || ch[2] < 0) return;
        var loc = self.s(ch[2]), pos = self.places.get(loc);
        if (pos && loc !== last) { pts.push(pos[0] + ',' + pos[1]); last = loc; }
      });
      if (pts.length > 1) {
        var line = svg('polyline', { points: pts.join(' '), class: 'route', 'data-npc': id });
        line.appendChild(svg('title', {})).textContent = id + "'s route to tick " + t;
        routes.appendChild(line);
      }
    });
  };

  // heldSet is the variants a holder holds at t in one belief index.
  Section.prototype.heldSet = function (index, h, t) {
    var self = this, m = index && index.get(h), out = [];
    if (m) m.forEach(function (_, c) { var st = self.state(index, h, c, t); if (st.held) out.push(st.variant); });
    return out.sort();
  };

  // recordKey names what a record is about, as ladder's trace comparison
  // does: two runs' records of one tick are paired by it.
  function recordKey(r) {
    var f = r.f;
    switch (r.kind) {
      case 'event': return 'event ' + f[0];
      case 'encounter': return 'encounter ' + encounterID(r.tick, f[0], f[1], f[2]);
      case 'transmission': return 'transmission ' + f[0] + '->' + f[1] + ' ' + f[2] + ' via ' + f[6];
      case 'rule': return 'rule ' + f[0] + ' ' + f[1];
      case 'supersession': return 'supersession ' + f[0] + '/' + f[1] + ' ' + f[3] + ' lost to ' + f[2];
      case 'belief': return 'belief ' + f[0] + '/' + f[1] + ' ' + f[3];
    }
    return r.kind;
  }

  // renderComparisons fills each comparison's summary, once.
  Section.prototype.renderComparisons = function () {
    var self = this;
    this.others.forEach(function (o) {
      var panel = self.root.querySelector('.panel.compare[data-other="' + CSS.escape(o.name) + '"]');
      if (!panel) return;
      var c = o.cmp, box = panel.querySelector('.cmpsummary'), S = function (i) { return self.s(i); };
      box.textContent = '';
      if (!c) return;
      var verdict = el('p', 'verdict');
      verdict.appendChild(el('b', '', 'Drift: '));
      verdict.appendChild(document.createTextNode(S(c.verdict) || S(c.skipped)));
      box.appendChild(verdict);
      if (c.classes && c.classes.length) {
        box.appendChild(el('p', 'classes', 'Rolls: ' + c.shared + ' keys rolled by both, ' + c.same + ' the same; ' +
          c.classes.map(function (k) { return k[1] + ' ' + S(k[0]); }).join(', ') + '.'));
      }
      if (c.record) {
        var p = el('p', 'firstrecord');
        p.appendChild(el('b', '', 'First divergent record: '));
        var rec = c.record[3] >= 0 ? self.bySeq.get(c.record[3]) : null;
        p.appendChild(self.link('tick ' + c.record[0] + ', ' + S(c.record[1]) + ' ' + S(c.record[2]), c.record[0], rec ? [rec] : null,
          c.record[3] >= 0 ? { kind: 'trace', value: String(c.record[3]) } : null));
        p.appendChild(el('span', 'detail', ' — ' + S(c.record[4])));
        box.appendChild(p);
      } else if (!c.skipped) box.appendChild(el('p', 'firstrecord', 'The traces are identical.'));
      if (c.roll) {
        var q = el('p', 'firstroll'), r = c.roll, mine = r[6] >= 0 ? self.bySeq.get(r[6]) : null;
        q.appendChild(el('b', '', 'First divergent roll: '));
        q.appendChild(self.link('tick ' + r[0] + ' ' + S(r[1]), r[0], mine ? [mine] : null, r[6] >= 0 ? { kind: 'trace', value: String(r[6]) } : null));
        q.appendChild(document.createTextNode(' (' + S(r[2]) + '): ' + S(c.a) + ' ' + (S(r[3]) || 'did not roll it') + '; ' + S(c.b) + ' ' + (S(r[4]) || 'did not roll it')));
        box.appendChild(q);
      }
      if (c.belief) {
        var b = c.belief, bp = el('p', 'firstbelief'), set = function (vs) { return vs.length ? '[' + vs.map(S).join(', ') + ']' : 'nothing'; };
        bp.appendChild(el('b', '', 'First divergent belief set: '));
        bp.appendChild(self.link('tick ' + b[0] + ', ' + S(b[1]), b[0], null, { kind: 'npc', value: S(b[1]) }));
        bp.appendChild(document.createTextNode(' holds ' + set(b[2]) + ' in ' + S(c.a) + ' and ' + set(b[3]) + ' in ' + S(c.b)));
        box.appendChild(bp);
      }
    });
  };

  // renderCompare shows, at t, the belief sets that differ and the tick's
  // records of both runs side by side, paired by what they are about.
  Section.prototype.renderCompare = function (t) {
    var self = this;
    this.others.forEach(function (o) {
      var panel = self.root.querySelector('.panel.compare[data-other="' + CSS.escape(o.name) + '"]');
      if (!panel) return;
      var list = panel.querySelector('ul.beliefdiff'), n = 0;
      list.textContent = '';
      self.npcs.forEach(function (np) {
        if (self.npc && np.id !== self.npc) return;
        var a = self.heldSet(self.bel, np.id, t), b = self.heldSet(o.bel, np.id, t);
        if (a.join() === b.join()) return;
        var li = el('li');
        li.setAttribute('data-holder', np.id);
        li.appendChild(self.link(np.id, t, null, { kind: 'npc', value: np.id }));
        li.appendChild(document.createTextNode(' holds ' + (a.length ? a.join(', ') : 'nothing') + ' here, ' + (b.length ? b.join(', ') : 'nothing') + ' in ' + o.name));
        list.appendChild(li);
        n++;
      });
      if (!n) list.appendChild(el('li', 'empty', 'Every NPC holds the same variants in both runs at this tick.'));
      var body = panel.querySelector('table.tracediff tbody'), mine = self.feedAt(t), theirs = self.feedAt(t, o.feed);
      body.textContent = '';
      var first = o.cmp && o.cmp.record && o.cmp.record[0] === t ? o.cmp.record[3] : -1;
      var byKey = new Map(), rows = [];
      theirs.forEach(function (r) { var k = recordKey(r); if (!byKey.has(k)) byKey.set(k, []); byKey.get(k).push(r); });
      mine.forEach(function (r) {
        var q = byKey.get(recordKey(r)), other = q && q.length ? q.shift() : null;
        rows.push([r, other]);
      });
      byKey.forEach(function (q) { q.forEach(function (r) { rows.push([null, r]); }); });
      var shown = 0, more = 0;
      rows.forEach(function (p) {
        var a = p[0], b = p[1], da = a && self.describe(a), db = b && self.describe(b);
        // The first divergent record may differ in a field the feed does
        // not show (an event's hash): it is never "the same".
        var isFirst = a && a.seq === first;
        var same = a && b && a.fired === b.fired && da[2] === db[2] && !isFirst;
        if ((a && !self.shownRecord(a)) && (b && !self.shownRecord(b))) return;
        if (same && rows.length > 40) return; // a big tick lists what differs
        if (!isFirst && shown >= 200) { more++; return; }
        var tr = el('tr', same ? 'same' : a && b ? 'changed' : a ? 'onlyhere' : 'onlythere');
        if (a) tr.setAttribute('data-seq', String(a.seq));
        if (isFirst) tr.classList.add('first');
        [[a, da], [b, db]].forEach(function (x) {
          var td = el('td');
          if (x[0]) {
            td.appendChild(el('span', 'out ' + (x[0].fired ? 'fired' : 'declined'), x[1][1]));
            td.appendChild(el('span', 'kind', x[1][0]));
            td.appendChild(el('span', 'text', x[1][2]));
          } else td.appendChild(el('span', 'none', '— no such record —'));
          tr.appendChild(td);
        });
        body.appendChild(tr);
        shown++;
      });
      if (more) body.appendChild(el('tr', 'more')).appendChild(el('td', '', '… and ' + more + ' more records that differ at this tick (the NPC filter and the search narrow them)')).colSpan = 2;
      if (!shown) body.appendChild(el('tr', 'empty')).appendChild(el('td', '', mine.length + theirs.length ? 'The tick\'s records are the same in both runs.' : 'Neither run derived anything at this tick.')).colSpan = 2;
    });
  };

  Section.prototype.alignOthers = function () {
    var self = this;
    this.root.querySelectorAll('input.alignscrub').forEach(function (box) {
      var o = byName.get(box.getAttribute('data-with'));
      if (box.checked && o && o !== self) {
        o.details.open = true;
        o.ensure();
        o.setTick(self.tick, false);
      }
    });
  };

  Section.prototype.render = function () {
    var t = this.tick;
    this.renderMap(t);
    this.renderWhyNot(t);
    this.renderBeliefs(t);
    this.renderSocial(t);
    this.renderDiff(t);
    this.renderFeed(t);
    this.renderCompare(t);
    this.renderRules(t);
    this.renderVariants(t);
  };

  // renderVariants shows the variant tree and the contests as they were
  // at t: a claim minted, a variant made or a contest held after t is
  // hidden, and each variant's contest counts are those up to t.
  Section.prototype.renderVariants = function (t) {
    var panel = this.root.querySelector('.panel.variants');
    if (!panel) return;
    var later = 0;
    panel.querySelectorAll('[data-tick]').forEach(function (e) {
      var hide = +e.getAttribute('data-tick') > t;
      if (hide) later++;
      if (e.hidden !== hide) e.hidden = hide;
    });
    panel.querySelectorAll('table.contests').forEach(function (tb) {
      var shown = tb.querySelector('tbody tr:not([hidden])') !== null;
      if (tb.hidden === shown) tb.hidden = !shown;
    });
    panel.querySelectorAll('span.contests').forEach(function (sp) {
      var upTo = function (k) { return (sp.getAttribute(k) || '').split(' ').filter(function (x) { return x !== '' && +x <= t; }).length; };
      var won = upTo('data-won'), lost = upTo('data-lost');
      sp.hidden = won + lost === 0;
      sp.textContent = 'won ' + won + ', lost ' + lost + ' contests' + (won ? "; each win dents its holder's confidence (below)" : '');
    });
    var note = panel.querySelector('.later');
    if (note) note.textContent = later ? later + ' made after it are hidden until the scrubber reaches them.' : 'nothing in it is later.';
  };

  Section.prototype.setTick = function (t, remember) {
    this.ensure();
    if (!this.range) return;
    if (!isFinite(t)) t = this.min;
    t = Math.max(this.min, Math.min(this.max, Math.round(t)));
    this.tick = t;
    this.range.value = String(t);
    this.number.value = String(t);
    this.root.querySelectorAll('.now').forEach(function (e) { e.textContent = String(t); });
    this.root.querySelectorAll('line.cursor').forEach(function (l) { l.setAttribute('x1', t); l.setAttribute('x2', t); });
    // A why-not answer follows the scrubber; any other target is left.
    if (remember && !(this.target && this.target.kind === 'whynot')) this.target = this.npc ? { kind: 'npc', value: this.npc } : null;
    this.render();
    this.alignOthers();
    if (remember) this.remember();
  };

  // remember writes the section's state into the address.
  Section.prototype.remember = function () {
    var h = '#' + fragment(this.name, this.tick, this.target);
    try { history.replaceState(null, '', h); } catch (e) { location.replace(h); }
    markCurrent(this);
  };

  var sections = [], byName = new Map();
  document.querySelectorAll('section.rung').forEach(function (root) {
    var s = new Section(root);
    sections.push(s);
    byName.set(s.name, s);
    s.details.addEventListener('toggle', function () { if (s.details.open && !s.ready) s.setTick(s.tick, false); });
  });

  function markCurrent(s) {
    sections.forEach(function (x) { x.root.classList.toggle('current', x === s); });
  }

  // The page-wide controls: search, failed only, kind.
  var search = document.querySelector('input.search'), failedOnly = document.querySelector('input.failedonly'), kind = document.querySelector('select.kindfilter');
  function refilter() {
    filters.query = search.value.trim().toLowerCase();
    filters.kind = kind.value;
    document.body.classList.toggle('failedonly', failedOnly.checked);
    document.querySelectorAll('table.index tbody tr').forEach(function (tr) {
      tr.classList.toggle('nomatch', !matches(tr.textContent));
    });
    sections.forEach(function (s) {
      var hit = !filters.query || matches(s.root.querySelector('summary').textContent) || matches(s.name);
      if (s.ready && s.range) s.render();
      if (!hit && filters.query && s.ready && s.range) hit = s.root.querySelectorAll('table.beliefs tbody tr:not(.empty), ol.feed li:not(.empty)').length > 0;
      s.root.classList.toggle('nomatch', !hit && !!filters.query);
    });
  }
  search.addEventListener('input', refilter);
  failedOnly.addEventListener('change', refilter);
  kind.addEventListener('change', refilter);

  // applyHash opens what the address names. A section named there is
  // shown alone, at the top of the page, so the view it names is the
  // first thing painted — a headless screenshot of the address shows it
  // with no driver — and "every rung" brings the rest back.
  function applyHash() {
    var st = parseFragment(location.hash), s = st && byName.get(st.name);
    document.body.classList.toggle('focused', !!s);
    sections.forEach(function (x) { x.root.classList.toggle('focus', x === s); });
    if (!s) return;
    document.querySelector('.focusbar b').textContent = s.name;
    s.details.open = true;
    s.ensure();
    s.target = st.target;
    if (s.range) s.setTick(st.tick >= 0 ? st.tick : +s.root.getAttribute('data-default'), false);
    markCurrent(s);
    if (st.target && s.range) s.open(st.target);
    else window.scrollTo(0, 0);
  }
  window.addEventListener('hashchange', applyHash);
  // Open sections render at once, so a plain load (or a headless
  // screenshot) shows them as of their tick with no driver.
  sections.forEach(function (s) { if (s.details.open) s.setTick(s.tick, false); });
  applyHash();
  document.body.setAttribute('data-ready', '1');
})();
