// Whether this page can have the microphone. A browser gives a page its microphone only in a
// secure context (https://, or a loopback address); over plain http:// on the tailnet
// navigator.mediaDevices does not exist. Instead of a JavaScript error at "Hold to talk",
// the page says why and what the owner can do. Built with DOM calls only, like app.js.
"use strict";

(function () {
  const hasMic = window.isSecureContext && navigator.mediaDevices && typeof navigator.mediaDevices.getUserMedia === "function";
  if (hasMic) return;
  const script = document.currentScript || document.querySelector('script[src="/console/secure.js"]');
  const off = script ? script.dataset.httpsOff : "";
  const host = location.hostname;
  const https = "https://" + host + "/";

  const box = document.createElement("section");
  box.id = "insecure";
  box.className = "insecure";
  box.setAttribute("role", "note");
  const title = document.createElement("h2");
  title.textContent = "Push-to-talk is unavailable on this page";
  box.append(title);
  const para = (text) => { const p = document.createElement("p"); p.textContent = text; box.append(p); return p; };

  para("Browsers give a web page the microphone only when it comes over a secure connection (https://). " +
    "This page came over plain http://, so the browser does not let it use the microphone.");
  if (off === "tailnet-certs-off") {
    para("This tailnet has HTTPS certificates turned off, so the broker serves the console over plain HTTP. " +
      "To talk through the robot, the tailnet's owner turns them on: in the Tailscale admin console, open the DNS page, " +
      "enable MagicDNS and HTTPS Certificates, then restart the broker and open the console at " +
      (host.includes(".") ? https : "https://<broker>.<tailnet>.ts.net/") + ".");
  } else {
    para("Open the console at its https:// address" + (host.includes(".") ? " (" + https + ")" : "") +
      ". If it has none, the broker's owner gives it one: on the tailnet, turn on HTTPS Certificates in the Tailscale " +
      "admin console (DNS page) and restart the broker; elsewhere, start it with --tls-cert FILE --tls-key FILE.");
  }
  para("Everything else — joining, typing a sentence for the robot to say, expressions and looks — works here.");

  window.consoleMicUnavailable = "The microphone is not available: this page came over plain http://, and browsers give the microphone only to https:// pages (see the note at the top).";
  const place = () => {
    const header = document.querySelector("header");
    if (header) header.after(box); else document.body.prepend(box);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", place);
  else place();
})();
