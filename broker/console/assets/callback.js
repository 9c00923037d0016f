// Call back: when someone at home says "call dad", this owner's open console rings (a
// banner with Answer, and a tone) and a call nobody answered waits here as a missed call.
// The page polls /console/api/calls; that poll is also what tells the broker the console is
// open. Everything is built with textContent: nothing from the server becomes markup.
"use strict";
(() => {
  // The page's token (app.js renews it after a broker restart).
  const tokenMeta = document.querySelector('meta[name="console-token"]');
  const box = document.getElementById("callback");
  let audio = null;
  let sounds = 0;

  function ringTone() {
    try {
      audio = audio || new AudioContext();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.15;
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.4);
      sounds++;
      document.body.dataset.ringTones = String(sounds);
    } catch (e) {
      // No audio output: the banner still shows.
    }
  }

  async function post(url) {
    const resp = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "X-Console-Token": tokenMeta.content, "Content-Type": "application/json" }, body: "{}",
    });
    const data = await resp.json().catch(() => null);
    if (!resp.ok) {
      const msg = data && data.error ? data.error.message : `HTTP ${resp.status}`;
      const err = document.getElementById("error");
      if (err) { err.textContent = msg; err.hidden = false; }
      throw new Error(msg);
    }
    return data;
  }

  function el(tag, text, attrs) {
    const e = document.createElement(tag);
    if (text) e.textContent = text;
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }

  function place(r) {
    return r.room ? `${r.device} (${r.room})` : r.device;
  }

  function when(iso) {
    const d = new Date(iso);
    return d.toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit" });
  }

  function render(v) {
    box.replaceChildren();
    for (const r of v.ringing || []) {
      const banner = el("div", null, { "data-testid": "ring-banner", class: "ring-banner", role: "alert" });
      banner.append(el("strong", `${place(r)} is asking you to call`));
      banner.append(el("span", ` — they asked for ${r.wanted}. `));
      const answer = el("button", "Answer", { "data-testid": "ring-answer", type: "button" });
      answer.addEventListener("click", async () => {
        answer.disabled = true;
        answer.textContent = "Joining…";
        try { await post(`/console/api/robots/${encodeURIComponent(r.device)}/join`); } catch (e) { answer.disabled = false; answer.textContent = "Answer"; }
        poll(false);
      });
      banner.append(answer);
      box.append(banner);
    }
    if ((v.missed || []).length) {
      const list = el("ul", null, { class: "missed-calls", "aria-label": "Missed calls" });
      for (const m of v.missed) {
        const li = el("li", `Missed call: ${place(m)} asked for ${m.wanted}, ${when(m.at)}. `, { "data-testid": "missed-call" });
        const call = el("button", "Call back", { type: "button", "data-testid": "missed-call-back" });
        call.addEventListener("click", async () => {
          call.disabled = true;
          try { await post(`/console/api/robots/${encodeURIComponent(m.device)}/join`); } catch (e) { call.disabled = false; }
          poll(false);
        });
        const dismiss = el("button", "Dismiss", { type: "button", "data-testid": "missed-call-dismiss" });
        dismiss.addEventListener("click", async () => {
          render(await post(`/console/api/calls/dismiss?id=${m.id}`));
        });
        li.append(call, dismiss);
        list.append(li);
      }
      box.append(list);
    }
    if ((v.ringing || []).length) ringTone();
  }

  async function poll(again = true) {
    try {
      const resp = await fetch("/console/api/calls", { credentials: "same-origin", headers: { "X-Console-Token": tokenMeta.content } });
      if (resp.ok) {
        render(await resp.json());
        document.body.dataset.callsPolled = "1";
      }
    } catch (e) {
      // The broker is restarting or the network dropped: try again on the next tick.
    }
    if (again) setTimeout(poll, 2000);
  }
  poll();
})();
