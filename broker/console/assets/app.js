// The teleport console: a call screen for each robot. Everything is built with DOM calls
// (no innerHTML): what the robot heard is shown as text, never as markup. No third-party
// code; it works on a tailnet without internet. The call's timeline lives in this page's
// memory only: nothing of it is stored, and it is gone when the page closes.
"use strict";

// The page's token goes with every call to the broker (this page's heartbeat too). After a
// broker restart it is stale: the page asks for a new one and carries on without a reload.
const tokenMeta = document.querySelector('meta[name="console-token"]');
let boot = (document.querySelector('meta[name="console-boot"]') || {}).content || "";
const cards = new Map(); // device -> card
let state = null;
let clockSkew = 0;
let stateAsked = 0;
let lastViewAt = 0; // local clock minus the broker's, for the idle countdown

// Why a call ended, in words, with what to do (the closed reasons of the broker's
// api.CallEnd values).
function endSentence(reason) {
  const idleMin = state ? Math.round((state.idle_timeout_s || 600) / 60) : 10;
  return ({
    hang_up: "the room said hang up",
    idle: idleMin === 1 ? "idle for 1 minute" : `idle for ${idleMin} minutes`,
    owner_left: "you left",
    robot_offline: "the robot went offline",
    declined: "declined in the room",
    privacy: "privacy mode",
    quiet_time: "quiet time in the room",
    media_failed: "the video and sound stopped working; call again",
    page_lost: "this page stopped answering (closed, asleep or offline)",
    broker_restart: "the broker restarted; you can call again",
    no_tailnet_route: "the robot cannot reach this device on the tailnet: is Tailscale running on this device?",
    no_robot_address: "the robot offered no address on the tailnet: check that Tailscale runs on the robot",
    ice_failed: "the connection to the robot could not be made or was lost: check this device is on the tailnet, then call again",
    media_start_slow: "the robot's camera was too slow to start; call again in a moment",
    device_busy: "the robot's camera and microphone are in use; call again in a moment",
  })[reason] || "the call ended";
}
const endReasons = ["owner_left", "hang_up", "idle", "robot_offline", "declined", "privacy", "quiet_time", "media_failed",
  "page_lost", "broker_restart", "no_tailnet_route", "no_robot_address", "ice_failed", "media_start_slow", "device_busy"];

// refreshToken gets this page a new token after the broker restarted (the old one was
// signed by the run that stopped). It reports whether it got one.
async function refreshToken() {
  try {
    const resp = await fetch("/console/api/page", { credentials: "same-origin" });
    if (!resp.ok) return false;
    const data = await resp.json();
    tokenMeta.content = data.token;
    if (heartbeat) heartbeat.postMessage({ token: data.token });
    return true;
  } catch (e) {
    return false;
  }
}

// brokerRestarted ends what this page had going: the broker's restart ended it (and says so).
function brokerRestarted() {
  for (const c of cards.values()) {
    if (c.local || c.had || c.callState === "live" || c.callState === "connecting") {
      finishCall(c, "broker_restart");
      c.had = null;
    }
  }
}

// The page's heartbeat runs in a worker: a background tab's own timers are slowed to once a
// minute, a worker's are not. A page that stops (closed, asleep) stops it, and the broker
// ends its session within seconds.
let heartbeat = null;
try {
  heartbeat = new Worker("/console/heartbeat.js");
  heartbeat.postMessage({ token: tokenMeta.content });
} catch (e) { /* no worker: the state poll is the heartbeat */ }

// Closing the tab ends its session at once (the heartbeat would in seconds).
window.addEventListener("pagehide", () => {
  for (const c of cards.values()) {
    if (c.had || c.local) {
      fetch(`/console/api/robots/${encodeURIComponent(c.d)}/leave`, { method: "POST", keepalive: true, credentials: "same-origin",
        headers: { "X-Console-Token": tokenMeta.content, "Content-Type": "application/json" }, body: "{}" }).catch(() => {});
    }
  }
});

// Microphone processing for the call, from the page's settings (?echoCancellation=0 etc.).
const params = new URLSearchParams(location.search);
const audioSettings = {};
for (const k of ["echoCancellation", "noiseSuppression", "autoGainControl"]) audioSettings[k] = params.get(k) !== "0";

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

class APIError extends Error {
  constructor(msg, code, status) { super(msg); this.code = code; this.status = status; }
}

async function call(device, action, body, contentType) {
  const asked = performance.now();
  const headers = { "X-Console-Token": tokenMeta.content };
  let payload = body;
  if (body !== undefined && !(body instanceof Blob)) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  } else if (body instanceof Blob) {
    headers["Content-Type"] = contentType || "audio/wav";
  }
  const send = () => fetch(`/console/api/robots/${encodeURIComponent(device)}/${action}`, {
    method: "POST", headers, body: payload, credentials: "same-origin",
  });
  let resp = await send();
  if (resp.status === 403 && await refreshToken()) {
    // The broker restarted before this page's poll noticed: the click goes on with the new
    // run's token, once (a request refused for another reason is refused again).
    headers["X-Console-Token"] = tokenMeta.content;
    resp = await send();
  }
  const data = await resp.json().catch(() => null);
  if (!resp.ok) {
    const msg = data && data.error ? data.error.message : `HTTP ${resp.status}`;
    showError(msg);
    throw new APIError(msg, data && data.error ? data.error.code : "", resp.status);
  }
  showError("");
  if (data && data.robots) render(data, asked);
  return data;
}

function fmtTime(iso) {
  if (!iso || iso.startsWith("0001")) return "never";
  const d = new Date(iso);
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function fmtDuration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  return `${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

// ---- the timeline (page memory only) ----

function addTimeline(c, kind, text, extra) {
  const li = el("li", { class: "tl-" + kind, "data-kind": kind },
    el("time", {}, fmtTime(new Date().toISOString())), el("span", { class: "what" }, text));
  if (extra) li.append(extra);
  c.p.timeline.append(li);
  c.p.timeline.scrollTop = c.p.timeline.scrollHeight; // the list scrolls, never the page
  return li;
}

// ---- the card: the call screen of one robot ----

function card(r) {
  let c = cards.get(r.device);
  if (c) return c;
  const d = r.device;
  const p = {};
  c = { d, p, clipIDs: new Set(), exprs: "", had: null, local: null, ended: null };
  p.badge = el("span", { class: "badge", id: `online-${d}` });
  p.facts = el("p", { class: "facts", id: `facts-${d}` });
  p.who = el("p", { class: "hint", id: `who-${d}` });
  // How the last call ended, for a page opened after it: a line of text, never the stage (a
  // fresh page shows no call, so no black video box and no "ended" over it).
  p.lastEnd = el("p", { class: "hint last-end", id: `last-end-${d}`, "data-testid": "last-end" });
  p.lastEnd.hidden = true;
  p.callStart = el("button", { class: "primary call-start", id: `call-${d}`, "data-testid": "call-start", onclick: () => startCall(c) }, "Call");
  p.join = el("button", { id: `join-${d}`, onclick: () => join(c).catch(() => {}) }, "Join without video");
  p.callEnd = el("button", { class: "danger", id: `leave-${d}`, "data-testid": "call-end", onclick: () => endCall(c) }, "End");
  p.mute = el("button", { id: `mute-${d}`, "data-testid": "mute", "aria-pressed": "false", onclick: () => setMuted(c, !c.muted) }, "Mute");

  // The stage: the robot's video, large; its state and the call timer over it.
  p.video = el("video", { id: `video-${d}`, "data-testid": "robot-video", autoplay: "", playsinline: "" });
  p.video.addEventListener("click", (e) => lookAtClick(c, e));
  p.state = el("span", { class: "call-state", id: `call-state-${d}`, "data-testid": "call-state" });
  p.reason = el("span", { class: "call-reason", id: `call-reason-${d}`, "data-testid": "call-reason" });
  p.timer = el("span", { class: "call-timer", id: `call-timer-${d}`, "data-testid": "call-timer" });
  p.stage = el("div", { class: "stage", id: `stage-${d}` }, p.video,
    el("div", { class: "stage-bar" }, p.state, p.reason, p.timer));
  p.stage.hidden = true;

  p.idleText = el("span", {});
  p.stillHere = el("button", { class: "primary", "data-testid": "still-here", id: `still-here-${d}`,
    onclick: () => call(d, "keepalive", {}).then(() => addTimeline(c, "keepalive", "You said you are still here")).catch(() => {}) }, "I'm still here");
  p.idle = el("div", { class: "idle-warning", role: "alert", "data-testid": "idle-warning", id: `idle-warning-${d}` }, p.idleText, p.stillHere);
  p.idle.hidden = true;

  p.text = el("input", { type: "text", id: `say-text-${d}`, placeholder: "Type something for the robot to say", "aria-describedby": `say-limit-${d}` });
  p.count = el("span", { class: "count", id: `say-count-${d}` });
  p.limit = el("p", { class: "limit", id: `say-limit-${d}`, "data-testid": "text-limit", role: "alert" });
  p.limit.hidden = true;
  p.say = el("button", { class: "primary", id: `say-${d}` }, "Speak");
  const checkLength = () => {
    const max = (state && state.max_text) || 300;
    const n = [...p.text.value.trim()].length;
    p.count.textContent = `${n}/${max}`;
    const over = n > max;
    p.limit.hidden = !over;
    p.limit.textContent = over ? `Too long: ${n} characters. The limit is ${max}; shorten it to send.` : "";
    p.text.classList.toggle("over", over);
    p.say.disabled = over;
    return !over;
  };
  p.text.addEventListener("input", checkLength);
  const speak = () => {
    const text = p.text.value.trim();
    if (!text || !checkLength()) return;
    call(d, "say", { text }).then(() => {
      p.text.value = "";
      checkLength();
      addTimeline(c, "typed", `You typed: “${text}”`);
    }).catch((e) => {
      if (e.code === "invalid_args") { p.limit.hidden = false; p.limit.textContent = e.message; }
    });
  };
  p.say.addEventListener("click", speak);
  p.text.addEventListener("keydown", (e) => { if (e.key === "Enter") speak(); });
  p.ptt = el("button", { class: "ptt", id: `ptt-${d}`, "data-testid": "push-to-talk" }, "Hold to talk");
  wirePushToTalk(p.ptt, c);
  p.stop = el("button", { id: `stop-${d}`, onclick: () => call(d, "stop", {}).then(() => addTimeline(c, "robot", "The robot stopped")).catch(() => {}) }, "Stop");
  p.expressions = el("div", { class: "row", id: `expressions-${d}` });
  p.looks = el("div", { class: "row" });
  for (const dir of ["left", "up", "centre", "down", "right"]) {
    p.looks.append(el("button", { id: `look-${dir}-${d}`,
      onclick: () => call(d, "look", { direction: dir }).then(() => addTimeline(c, "robot", `The robot looked ${dir}`)).catch(() => {}) }, `Look ${dir}`));
  }
  p.timeline = el("ul", { class: "timeline", id: `clips-${d}`, "data-testid": "timeline", "aria-live": "polite" });
  p.settings = el("details", { class: "settings" }, el("summary", {}, "Microphone settings"),
    ...Object.keys(audioSettings).map((k) => {
      const box = el("input", { type: "checkbox", id: `${k}-${d}` });
      box.checked = audioSettings[k];
      box.addEventListener("change", () => { audioSettings[k] = box.checked; });
      return el("label", {}, box, " " + k.replace(/([A-Z])/g, " $1").toLowerCase());
    }));
  p.session = el("section", { class: "session", id: `session-${d}` },
    p.idle,
    el("div", { class: "row say" }, p.text, p.count, p.say), p.limit,
    el("div", { class: "row" }, p.ptt, p.stop),
    p.expressions, p.looks);
  p.timelineBox = el("section", { class: "timeline-box", id: `timeline-${d}` }, el("h3", {}, "This call"), p.timeline);
  p.timelineBox.hidden = true;
  const root = el("article", { class: "robot", id: `robot-${d}` },
    el("h2", {}, r.device, p.badge), p.facts, p.who, p.lastEnd, p.stage,
    el("div", { class: "row controls" }, p.callStart, p.join, p.mute, p.callEnd),
    p.session, p.timelineBox, p.settings);
  document.getElementById("robots").append(root);
  cards.set(d, c);
  return c;
}

// setCallState shows connecting, live or "ended: REASON" with its sentence.
function setCallState(c, st, reason) {
  const { p } = c;
  p.stage.hidden = false;
  p.state.textContent = st === "ended" ? `ended: ${reason}` : st;
  p.state.className = "call-state " + st;
  p.reason.textContent = st === "ended" ? endSentence(reason) : "";
  c.callState = st;
  if (st !== "live") p.timer.textContent = "";
}

// render shows a state view; asked is when it was asked for: a view older than this
// page's own call cannot end that call.
function render(s, asked) {
  // Views can arrive out of order (a poll answered after a join's reply): the broker's
  // clock orders them, and an older one is dropped.
  // Drawing the same view again (after a local change) keeps when it was asked for.
  if (s.boot && boot && s.boot !== boot) { // the broker restarted: its clock restarts the order too
    boot = s.boot;
    lastViewAt = 0;
    brokerRestarted();
  }
  if (s.boot) boot = s.boot;
  if (s !== state) {
    const at = s.now ? Date.parse(s.now) : 0;
    if (at < lastViewAt) return;
    lastViewAt = at;
    state = s;
    stateAsked = asked === undefined ? performance.now() : asked;
    // The broker's clock against this page's, from a new view only (a view drawn again later
    // is not newer) and with half the round trip taken off: a slow answer does not move the
    // idle countdown.
    if (s.now) clockSkew = Date.now() - (asked !== undefined ? (performance.now() - asked) / 2 : 0) - Date.parse(s.now);
  }
  for (const r of s.robots) {
    const c = card(r);
    const { p } = c;
    // A session this page left never comes back: a view asked for before the leave (a poll
    // answered late) must not revive it and then end the next call as it starts.
    const sess = r.session && !(c.leftSince && r.session.since === c.leftSince) ? r.session : null;
    p.badge.textContent = r.online ? "online" : "offline";
    p.badge.className = "badge " + (r.online ? "online" : "offline");
    p.facts.textContent = `${r.room || "no room"} · ${r.online ? r.state || "idle" : "not connected"} · last turn ${fmtTime(r.last_turn)}`;
    const joining = !!(sess && sess.mine && !sess.live);
    const mine = !!(sess && sess.mine && sess.live);
    const elsewhere = !!(sess && sess.elsewhere);
    p.who.textContent = joining ? "Waiting for the robot to announce you…" :
      elsewhere ? "You are connected from another tab or window. Call from here to move the call here: the robot announces you again." :
      sess ? (mine ? `You are connected since ${fmtTime(sess.since)}.` : `${sess.display} is connected.`) : "Nobody is connected.";
    const busy = !!(sess && !sess.mine && !elsewhere);
    p.callStart.hidden = busy || !!c.local || joining;
    p.callStart.disabled = !r.online || c.starting || c.leaving;
    p.join.hidden = (!!sess && !elsewhere) || !!c.local;
    p.join.disabled = !r.online;
    p.callEnd.hidden = !(mine || joining || c.local);
    p.mute.hidden = !c.local;
    p.session.hidden = !mine;
    const ex = (s.expressions || []).join(",");
    if (c.exprs !== ex) {
      c.exprs = ex;
      p.expressions.replaceChildren(...(s.expressions || []).map((x) =>
        el("button", { id: `expr-${x}-${r.device}`,
          onclick: () => call(r.device, "expression", { expression: x }).then(() => addTimeline(c, "robot", `The robot showed ${x}`)).catch(() => {}) }, x)));
    }
    followSession(c, r, sess, mine);
    if (mine) showClips(c, r, sess);
    showIdle(c, mine ? sess : null);
  }
}

// followSession notices the session's start and end (and the call's), for the timeline and
// the call state. An end shows its reason, from the broker.
function followSession(c, r, sess, mine) {
  const p = c.p;
  if (mine && c.had !== sess.since) {
    if (!c.had) { // a new session: a new timeline
      p.timeline.replaceChildren();
      c.clipIDs.clear();
    }
    c.had = sess.since;
    p.timelineBox.hidden = false;
    addTimeline(c, "join", "You joined: the robot announced you in the room");
  }
  const localCallGone = c.local && c.local.id && stateAsked > c.local.answeredAt &&
    (!mine || !sess.call || sess.call.id !== c.local.id);
  if ((c.had && !mine && !(sess && sess.mine)) || localCallGone) {
    const reason = r.last_end ? r.last_end.reason : "owner_left";
    if (c.had && !(sess && sess.mine)) c.had = null;
    finishCall(c, reason);
  }
  // A page that had no call of its own says how the last one ended in a line of text (within
  // five minutes of it), and keeps the stage hidden: nothing stale over an empty video box.
  const recentEnd = r.last_end && Date.now() - clockSkew - Date.parse(r.last_end.at) < 5 * 60e3;
  const ownCall = c.had || c.local || c.callState;
  p.lastEnd.hidden = !(recentEnd && !ownCall);
  if (!p.lastEnd.hidden) p.lastEnd.textContent = `Last call ended at ${fmtTime(r.last_end.at)}: ${endSentence(r.last_end.reason)}.`;
  if (c.local && c.callState === "live" && c.local.liveAt) p.timer.textContent = fmtDuration(performance.now() - c.local.liveAt);
}

function showClips(c, r, sess) {
  for (const cl of sess.clips || []) {
    if (c.clipIDs.has(cl.id)) continue;
    c.clipIDs.add(cl.id);
    const before = !(c.local && c.local.liveAt && Date.parse(cl.at) + clockSkew >= c.local.liveWall);
    const li = el("li", { id: `clip-${r.device}-${cl.id}`, class: "tl-heard", "data-kind": cl.no_audio ? "skipped" : "heard" },
      el("time", {}, fmtTime(cl.at)),
      el("span", { class: "what" }, before ? "Heard in the room (before the call was live):" : "Heard in the room:"));
    if (!cl.no_audio) { // the clip comes with the page's token, so it is fetched, then played from memory
      const audio = el("audio", { controls: "", preload: "none" });
      fetch(`/console/api/robots/${encodeURIComponent(r.device)}/clips/${cl.id}`, { credentials: "same-origin", headers: { "X-Console-Token": tokenMeta.content } })
        .then((resp) => resp.ok ? resp.blob() : null).then((b) => { if (b) audio.src = URL.createObjectURL(b); }).catch(() => {});
      li.append(audio);
    }
    li.append(el("span", { class: "transcript" }, cl.text || cl.note || "(no words recognized)"));
    c.p.timeline.append(li);
    c.p.timeline.scrollTop = c.p.timeline.scrollHeight;
    ding();
  }
}

// showIdle warns 30 s before the idle timeout, with "I'm still here".
function showIdle(c, sess) {
  const p = c.p;
  c.idleDeadline = sess && sess.idle_deadline ? Date.parse(sess.idle_deadline) + clockSkew : 0;
  tickIdle(c);
  p.idle.hidden = !c.idleDeadline || c.idleDeadline - Date.now() > 30e3;
}

function tickIdle(c) {
  if (!c.idleDeadline) return;
  const left = Math.max(0, Math.ceil((c.idleDeadline - Date.now()) / 1000));
  c.p.idleText.textContent = `Nothing has happened for a while: the call ends in ${left} s. `;
  c.p.idle.hidden = left > 30;
}

// A short tone when the room says something new (Web Audio; no file).
let dingCtx = null;
function ding() {
  try {
    dingCtx = dingCtx || new AudioContext();
    const o = dingCtx.createOscillator(), g = dingCtx.createGain();
    o.frequency.value = 880;
    g.gain.setValueAtTime(0.15, dingCtx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, dingCtx.currentTime + 0.25);
    o.connect(g).connect(dingCtx.destination);
    o.start();
    o.stop(dingCtx.currentTime + 0.25);
  } catch (e) { /* no audio output: the timeline still shows it */ }
}

// ---- the call ----

async function join(c) {
  const r = await call(c.d, "join", {});
  return r;
}

// startCall joins (the robot plays its chime and announcement first), then offers: the
// robot's video and the room's audio come back; the owner's microphone goes out. The
// owner's camera is never asked for.
async function startCall(c) {
  if (c.starting || c.local || c.leaving) return;
  c.starting = true;
  c.p.callStart.disabled = true;
  const marks = { click: performance.now() };
  window.callMarks = marks;
  setCallState(c, "connecting");
  try {
    // The microphone and the offer are made while the robot plays its chime: nothing is
    // sent before the join has played, and the call is up as soon as it has.
    const ready = prepare(c, marks);
    ready.catch(() => {});
    const r = state && state.robots.find((x) => x.device === c.d);
    // Only this page's own live session skips the join: another tab's, or one from before a
    // reload, is taken over as a new session, announced with its chime.
    const left = r && r.session && c.leftSince && r.session.since === c.leftSince;
    if (!(r && r.session && r.session.mine && r.session.live) || left) {
      try {
        await join(c);
      } catch (e) { // not joined: a closed reason is shown as the end; anything else as the error alone
        ready.then(() => hangUpLocal(c), () => hangUpLocal(c));
        if (endReasons.includes(e.code)) setCallState(c, "ended", e.code);
        else { c.callState = undefined; c.p.stage.hidden = true; }
        return;
      }
    }
    marks.joined = performance.now(); // the chime and announcement have played
    try {
      await connect(c, await ready, marks);
    } catch (e) {
      hangUpLocal(c);
      const reason = endReasons.includes(e.code) ? e.code : "media_failed";
      setCallState(c, "ended", reason);
      if (reason === "media_failed") c.p.reason.textContent = `${endSentence(reason)} (${e.message || e})`;
    }
  } finally {
    c.starting = false;
    if (state) render(state);
  }
}

// prepare opens the microphone and makes the complete offer (ICE gathered); nothing leaves
// the page.
async function prepare(c, marks) {
  const local = { id: "", pc: null, mic: null, liveAt: 0, liveWall: 0, answeredAt: Infinity };
  c.local = local;
  let mic = null;
  if (window.isSecureContext && navigator.mediaDevices) {
    try {
      mic = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, ...audioSettings }, video: false });
    } catch (e) {
      showError("The microphone is not available (" + e.message + "): you will see and hear the room, and can type.");
    }
  } else {
    showError((window.consoleMicUnavailable || "This page is not a secure (https://) page, so the browser gives it no microphone.") +
      " You will see and hear the room, and can type.");
  }
  local.mic = mic;
  if (c.local !== local) { // ended meanwhile
    if (mic) for (const t of mic.getTracks()) t.stop();
    throw new APIError("the call ended while connecting", "owner_left");
  }
  const pc = new RTCPeerConnection({ iceServers: [] }); // host candidates only: no STUN, no TURN
  local.pc = pc;
  window.reachyCall = local; // for tests and the stats panel
  if (mic) {
    for (const t of mic.getAudioTracks()) pc.addTransceiver(t, { direction: "sendrecv", streams: [mic] });
    watchSpeech(c, mic);
  } else {
    pc.addTransceiver("audio", { direction: "recvonly" });
  }
  pc.addTransceiver("video", { direction: "recvonly" });
  const remote = new MediaStream();
  pc.ontrack = (e) => {
    remote.addTrack(e.track);
    c.p.video.srcObject = remote;
    c.p.video.play().catch(() => {});
  };
  watchFirstFrame(c, marks);
  pc.onconnectionstatechange = () => {
    if (c.local !== local) return;
    if (pc.connectionState === "connected" && c.callState !== "live") {
      local.liveAt = performance.now();
      local.liveWall = Date.now();
      marks.connected = local.liveAt;
      setCallState(c, "live");
      addTimeline(c, "live", "The call is live: you see and hear the room");
      if (!decodesH264()) { // a browser-side cause, said as such: never "the robot cannot send video"
        const why = noH264Sentence();
        showError(why);
        addTimeline(c, "note", why);
      }
    } else if (pc.connectionState === "failed") {
      finishCall(c, "ice_failed");
    }
  };
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc, 3000);
  marks.gathered = performance.now();
  return local;
}

// decodesH264 reports whether this browser can decode the robot's video: its camera sends
// H.264 only (the robot encodes in hardware and never transcodes). Firefox decodes it with
// Cisco's OpenH264 plugin, which it downloads by itself when online; without it the call
// carries sound only.
function decodesH264() {
  if (!window.RTCRtpReceiver || !RTCRtpReceiver.getCapabilities) return true; // cannot tell: try
  const caps = RTCRtpReceiver.getCapabilities("video");
  return !caps || caps.codecs.some((k) => /^video\/h264$/i.test(k.mimeType));
}

function noH264Sentence() {
  const firefox = /firefox\//i.test(navigator.userAgent);
  return "This browser cannot decode the robot's video (H.264), so the call will have sound but no picture. " +
    (firefox ? "In Firefox: open about:addons → Plugins and make sure “OpenH264 Video Codec provided by Cisco Systems, Inc.” is installed " +
      "and set to Always Activate (Firefox downloads it by itself when it is online; Debian's Firefox ESR turns it off: set " +
      "media.gmp-gmpopenh264.enabled to true in about:config first), then reload this page. " : "") +
    "Chrome, Chromium, Edge and Safari decode it as installed.";
}

// connect posts the offer and sets the robot's answer.
async function connect(c, local, marks) {
  if (c.local !== local) throw new APIError("the call ended while connecting", "owner_left");
  marks.offered = performance.now();
  const ans = await call(c.d, "call", { sdp: local.pc.localDescription.sdp });
  if (c.local !== local) throw new APIError("the call ended while connecting", "owner_left");
  local.id = ans.call_id;
  marks.answered = local.answeredAt = performance.now();
  await local.pc.setRemoteDescription({ type: "answer", sdp: ans.sdp });
  setMuted(c, c.muted && !!local.mic);
}

// gathered waits (bounded) for ICE gathering to finish: the offer goes out complete. Host
// candidates come at once; the browser may go on trying other interfaces for seconds, so
// a quarter second with no new candidate after a UDP one counts as done.
function gathered(pc, ms) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    let quiet = null;
    const done = () => { clearTimeout(t); clearTimeout(quiet); resolve(); };
    pc.addEventListener("icegatheringstatechange", () => { if (pc.iceGatheringState === "complete") done(); });
    pc.addEventListener("icecandidate", (e) => {
      if (!e.candidate) return done();
      clearTimeout(quiet);
      if (/ udp /i.test(e.candidate.candidate)) quiet = setTimeout(done, 250);
    });
  });
}

function watchFirstFrame(c, marks) {
  const v = c.p.video;
  const seen = () => { if (!marks.firstFrame) marks.firstFrame = performance.now(); };
  if (v.requestVideoFrameCallback) v.requestVideoFrameCallback(seen);
  else v.addEventListener("loadeddata", seen, { once: true });
}

// watchSpeech notes the owner's speech in the timeline as "(spoke)" — never the words —
// and tells the broker the owner is still here while they talk.
function watchSpeech(c, mic) {
  const ctx = new AudioContext();
  const an = ctx.createAnalyser();
  an.fftSize = 2048;
  ctx.createMediaStreamSource(mic).connect(an);
  const buf = new Float32Array(an.fftSize);
  let talking = 0, quiet = 0, lastKeep = -Infinity;
  const local = c.local;
  const t = setInterval(() => {
    if (c.local !== local) { clearInterval(t); ctx.close(); return; }
    if (c.muted && !c.holding) { talking = 0; return; }
    an.getFloatTimeDomainData(buf);
    let s = 0;
    for (const x of buf) s += x * x;
    const voice = Math.sqrt(s / buf.length) > 0.02;
    quiet = voice ? 0 : quiet + 1;
    if (quiet >= 5) talking = 0; // a second of silence ends what was said
    if (voice) talking++;
    const now = performance.now();
    if (talking === 2) addTimeline(c, "spoke", "You: (spoke)"); // 0.4 s of voice: once per stretch of speech
    if (talking >= 2 && now - lastKeep > 20000) {
      lastKeep = now;
      call(c.d, "keepalive", {}).catch(() => {});
    }
  }, 200);
}

function setMuted(c, muted) {
  c.muted = muted;
  const mic = c.local && c.local.mic;
  if (mic) for (const t of mic.getAudioTracks()) t.enabled = !muted || !!c.holding;
  c.p.mute.textContent = muted ? "Unmute" : "Mute";
  c.p.mute.setAttribute("aria-pressed", String(muted));
  c.p.mute.classList.toggle("muted", muted);
}

async function endCall(c) {
  if (c.leaving) return;
  c.leaving = true;
  // This page's media stops at once; the session it leaves never comes back in a later view
  // (a look at the state asked before the leave may be answered after it), and Call waits
  // for the leave's answer: a join sent before it could cross the leave at the broker.
  const left = state && state.robots.find((x) => x.device === c.d);
  if (left && left.session) c.leftSince = left.session.since;
  c.had = null;
  finishCall(c, "owner_left");
  try {
    await call(c.d, "leave", {});
  } catch (e) { /* the session may be gone already */ }
  c.leaving = false;
  if (state) render(state);
}

// hangUpLocal stops this page's media: the peer connection and the microphone.
function hangUpLocal(c) {
  const local = c.local;
  c.local = null;
  if (!local) return;
  if (local.pc) local.pc.close();
  if (local.mic) for (const t of local.mic.getTracks()) t.stop();
  c.p.video.srcObject = null;
}

function finishCall(c, reason) {
  const wasOn = !!c.local || c.callState === "live" || c.callState === "connecting" || c.had;
  hangUpLocal(c);
  if (c.callState === "ended" && c.ended === reason) return;
  if (!wasOn && c.callState === "ended") return;
  c.ended = reason;
  setCallState(c, "ended", reason);
  addTimeline(c, "end", `The call ended: ${endSentence(reason)}`);
  if (state) render(state);
}

// lookAtClick turns the robot's head toward the clicked point of its picture.
function lookAtClick(c, e) {
  const v = c.p.video;
  if (!v.videoWidth || c.callState !== "live") return;
  const box = v.getBoundingClientRect();
  // The picture is letterboxed inside the element (object-fit: contain).
  const scale = Math.min(box.width / v.videoWidth, box.height / v.videoHeight);
  const w = v.videoWidth * scale, h = v.videoHeight * scale;
  const x = ((e.clientX - box.left - (box.width - w) / 2) / w) * 2 - 1;
  const y = ((e.clientY - box.top - (box.height - h) / 2) / h) * 2 - 1;
  if (Math.abs(x) > 1 || Math.abs(y) > 1) return; // outside the picture
  const r3 = (n) => Math.round(n * 1000) / 1000;
  call(c.d, "look_at", { x: r3(x), y: r3(y) }).then(() => addTimeline(c, "robot", "The robot looked where you clicked")).catch(() => {});
}

async function poll() {
  try {
    const asked = performance.now();
    const resp = await fetch("/console/api/state", { credentials: "same-origin", headers: { "X-Console-Token": tokenMeta.content } });
    if (resp.ok) render(await resp.json(), asked);
    else if (resp.status === 403 && await refreshToken()) brokerRestartedIfCalling();
  } catch (e) {
    // The broker may be restarting; keep polling.
  }
  const inCall = [...cards.values()].some((c) => c.local);
  setTimeout(poll, inCall ? 500 : 1000);
}

// A stale token means the broker restarted (its key is new): what this page had going ended
// with it, whatever the next view says.
function brokerRestartedIfCalling() {
  brokerRestarted();
  boot = "";
}

setInterval(() => {
  for (const c of cards.values()) {
    tickIdle(c);
    if (c.local && c.callState === "live" && c.local.liveAt) c.p.timer.textContent = fmtDuration(performance.now() - c.local.liveAt);
  }
}, 250);

// Push-to-talk. In a call it opens the microphone while held (on a phone the call starts
// muted); outside a call it records a clip: PCM through Web Audio, encoded to a 16 kHz WAV
// on release. No codec, no library.
const mic = { ctx: null, node: null, chunks: [], recording: false, rate: 48000 };

async function openMic() {
  if (mic.ctx) return;
  if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    throw new Error(window.consoleMicUnavailable || "this page is not a secure (https://) page, so the browser gives it no microphone");
  }
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

function wirePushToTalk(button, c) {
  const label = "Hold to talk";
  const start = async (e) => {
    e.preventDefault();
    if (c.local && c.local.mic) { // in a call: the live microphone, while held
      c.holding = true;
      setMuted(c, c.muted);
      button.classList.add("recording");
      button.textContent = "Talking… release to stop";
      return;
    }
    try {
      await openMic();
    } catch (err) {
      showError(err.message.startsWith("The microphone") ? err.message : "The microphone is not available: " + err.message);
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
    if (c.holding) {
      c.holding = false;
      setMuted(c, c.muted);
      button.classList.remove("recording");
      button.textContent = label;
      return;
    }
    if (!mic.recording) return;
    mic.recording = false;
    button.classList.remove("recording");
    button.textContent = label;
    window.lastPushToTalkRelease = performance.now();
    const wav = encodeWAV(mic.chunks, mic.rate);
    mic.chunks = [];
    call(c.d, "talk", wav, "audio/wav").then(() => addTimeline(c, "spoke", "You: (spoke, push-to-talk)")).catch(() => {});
  };
  button.addEventListener("pointerdown", start);
  button.addEventListener("pointerup", stop);
  button.addEventListener("pointerleave", stop);
  button.addEventListener("pointercancel", stop);
  button.addEventListener("contextmenu", (e) => e.preventDefault()); // a long press on a phone
}

// On a phone the call starts muted: talk by holding the button, so the room does not hear
// the phone's own speaker come back.
function phoneDefaults(c) {
  if (window.matchMedia("(pointer: coarse)").matches) setMuted(c, true);
}

poll().then(() => { for (const c of cards.values()) phoneDefaults(c); });
