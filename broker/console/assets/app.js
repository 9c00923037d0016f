// The teleport console. Everything is built with DOM calls (no innerHTML): what the robot
// heard is shown as text, never as markup. No third-party code; it works on a tailnet
// without internet.
"use strict";

const token = document.querySelector('meta[name="console-token"]').content;
const cards = new Map(); // device -> {el, parts}
let state = null;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function showError(msg) {
  const box = document.getElementById("error");
  box.textContent = msg || "";
  box.hidden = !msg;
}

async function call(device, action, body, contentType) {
  const headers = { "X-Console-Token": token };
  let payload = body;
  if (body !== undefined && !(body instanceof Blob)) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  } else if (body instanceof Blob) {
    headers["Content-Type"] = contentType || "audio/wav";
  }
  const resp = await fetch(`/console/api/robots/${encodeURIComponent(device)}/${action}`, {
    method: "POST", headers, body: payload, credentials: "same-origin",
  });
  const data = await resp.json().catch(() => null);
  if (!resp.ok) {
    const msg = data && data.error ? data.error.message : `HTTP ${resp.status}`;
    showError(msg);
    throw new Error(msg);
  }
  showError("");
  if (data) render(data);
  return data;
}

function fmtTime(iso) {
  if (!iso || iso.startsWith("0001")) return "never";
  const d = new Date(iso);
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function card(r) {
  let c = cards.get(r.device);
  if (c) return c;
  const d = r.device;
  const p = {};
  p.badge = el("span", { class: "badge", id: `online-${d}` });
  p.facts = el("p", { class: "facts", id: `facts-${d}` });
  p.who = el("p", { class: "hint", id: `who-${d}` });
  p.join = el("button", { class: "primary", id: `join-${d}`, onclick: () => call(d, "join", {}).catch(() => {}) }, "Join");
  p.leave = el("button", { class: "danger", id: `leave-${d}`, onclick: () => call(d, "leave", {}).catch(() => {}) }, "Leave");
  p.text = el("input", { type: "text", id: `say-text-${d}`, maxlength: "300", placeholder: "Type something for the robot to say" });
  p.say = el("button", { class: "primary", id: `say-${d}` }, "Speak");
  const speak = () => {
    const text = p.text.value.trim();
    if (!text) return;
    call(d, "say", { text }).then(() => { p.text.value = ""; }).catch(() => {});
  };
  p.say.addEventListener("click", speak);
  p.text.addEventListener("keydown", (e) => { if (e.key === "Enter") speak(); });
  p.ptt = el("button", { class: "ptt", id: `ptt-${d}` }, "Hold to talk");
  wirePushToTalk(p.ptt, d);
  p.stop = el("button", { id: `stop-${d}`, onclick: () => call(d, "stop", {}).catch(() => {}) }, "Stop");
  p.expressions = el("div", { class: "row", id: `expressions-${d}` });
  p.looks = el("div", { class: "row" });
  for (const dir of ["left", "up", "centre", "down", "right"]) {
    p.looks.append(el("button", { id: `look-${dir}-${d}`, onclick: () => call(d, "look", { direction: dir }).catch(() => {}) }, `Look ${dir}`));
  }
  p.clips = el("ul", { class: "clips", id: `clips-${d}` });
  p.session = el("section", { class: "session", id: `session-${d}` },
    el("div", { class: "row" }, p.text, p.say),
    el("div", { class: "row" }, p.ptt, p.stop, p.leave),
    p.expressions, p.looks,
    el("h3", {}, "Heard in the room"), p.clips);
  const root = el("article", { class: "robot", id: `robot-${d}` },
    el("h2", {}, r.device, p.badge), p.facts, p.who, el("div", { class: "row" }, p.join), p.session);
  document.getElementById("robots").append(root);
  c = { el: root, p, clipIDs: new Set(), exprs: "" };
  cards.set(d, c);
  return c;
}

function render(s) {
  state = s;
  for (const r of s.robots) {
    const { p, clipIDs } = card(r);
    const c = cards.get(r.device);
    p.badge.textContent = r.online ? "online" : "offline";
    p.badge.className = "badge " + (r.online ? "online" : "offline");
    p.facts.textContent = `${r.room || "no room"} · ${r.online ? r.state || "idle" : "not connected"} · last turn ${fmtTime(r.last_turn)}`;
    const sess = r.session;
    const joining = !!(sess && sess.mine && !sess.live);
    const mine = !!(sess && sess.mine && sess.live);
    p.who.textContent = joining ? "Waiting for the robot to announce you…" :
      sess ? (mine ? `You are connected since ${fmtTime(sess.since)}.` : `${sess.display} is connected.`) : "Nobody is connected.";
    p.join.hidden = !!sess;
    p.join.disabled = !r.online;
    p.session.hidden = !mine;
    const ex = (s.expressions || []).join(",");
    if (c.exprs !== ex) {
      c.exprs = ex;
      p.expressions.replaceChildren(...(s.expressions || []).map((x) =>
        el("button", { id: `expr-${x}-${r.device}`, onclick: () => call(r.device, "expression", { expression: x }).catch(() => {}) }, x)));
    }
    if (!mine) {
      p.clips.replaceChildren();
      clipIDs.clear();
      continue;
    }
    for (const cl of sess.clips || []) {
      if (clipIDs.has(cl.id)) continue;
      clipIDs.add(cl.id);
      p.clips.append(el("li", { id: `clip-${r.device}-${cl.id}` },
        el("time", {}, fmtTime(cl.at)),
        el("audio", { controls: "", preload: "none", src: `/console/api/robots/${encodeURIComponent(r.device)}/clips/${cl.id}` }),
        el("span", { class: "transcript" }, cl.text || cl.note || "(no words recognized)")));
    }
  }
}

async function poll() {
  try {
    const resp = await fetch("/console/api/state", { credentials: "same-origin" });
    if (resp.ok) render(await resp.json());
  } catch (e) {
    // The broker may be restarting; keep polling.
  }
  setTimeout(poll, 1000);
}

// Push-to-talk: the microphone through Web Audio, kept as PCM, encoded to a 16 kHz WAV on
// release. No codec, no library.
const mic = { ctx: null, node: null, chunks: [], recording: false, rate: 48000 };

async function openMic() {
  if (mic.ctx) return;
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true } });
  const ctx = new AudioContext();
  const src = ctx.createMediaStreamSource(stream);
  const node = ctx.createScriptProcessor(4096, 1, 1);
  node.onaudioprocess = (e) => {
    if (mic.recording) mic.chunks.push(new Float32Array(e.inputBuffer.getChannelData(0)));
  };
  src.connect(node);
  node.connect(ctx.destination);
  mic.ctx = ctx; mic.node = node; mic.rate = ctx.sampleRate;
}

function encodeWAV(chunks, inRate) {
  let n = 0;
  for (const c of chunks) n += c.length;
  const all = new Float32Array(n);
  let o = 0;
  for (const c of chunks) { all.set(c, o); o += c.length; }
  const outRate = 16000;
  const ratio = inRate / outRate;
  const m = Math.floor(n / ratio);
  const buf = new ArrayBuffer(44 + m * 2);
  const v = new DataView(buf);
  const str = (off, s) => { for (let i = 0; i < s.length; i++) v.setUint8(off + i, s.charCodeAt(i)); };
  str(0, "RIFF"); v.setUint32(4, 36 + m * 2, true); str(8, "WAVE");
  str(12, "fmt "); v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 1, true);
  v.setUint32(24, outRate, true); v.setUint32(28, outRate * 2, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true);
  str(36, "data"); v.setUint32(40, m * 2, true);
  for (let i = 0; i < m; i++) {
    // Average the input samples that fall into this output sample (a box low-pass).
    const a = Math.floor(i * ratio), b = Math.min(n, Math.floor((i + 1) * ratio));
    let s = 0;
    for (let j = a; j < b; j++) s += all[j];
    s = b > a ? s / (b - a) : 0;
    s = Math.max(-1, Math.min(1, s));
    v.setInt16(44 + i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return new Blob([buf], { type: "audio/wav" });
}

function wirePushToTalk(button, device) {
  const start = async (e) => {
    e.preventDefault();
    try {
      await openMic();
    } catch (err) {
      showError("The microphone is not available: " + err.message);
      return;
    }
    if (mic.ctx.state === "suspended") await mic.ctx.resume();
    mic.chunks = [];
    mic.recording = true;
    button.classList.add("recording");
    button.textContent = "Talking… release to send";
  };
  const stop = (e) => {
    e.preventDefault();
    if (!mic.recording) return;
    mic.recording = false;
    button.classList.remove("recording");
    button.textContent = "Hold to talk";
    window.lastPushToTalkRelease = performance.now();
    const wav = encodeWAV(mic.chunks, mic.rate);
    mic.chunks = [];
    call(device, "talk", wav, "audio/wav").catch(() => {});
  };
  button.addEventListener("pointerdown", start);
  button.addEventListener("pointerup", stop);
  button.addEventListener("pointerleave", stop);
}

poll();
