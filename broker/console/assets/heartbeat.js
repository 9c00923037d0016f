// The console page's heartbeat, in a worker: every two seconds it tells the broker this page
// is still here (GET /console/api/heartbeat with the page's token). A worker's timers are not
// slowed in a background tab the way the page's are; a closed tab or a sleeping laptop stops
// it, and the broker then ends the page's session within seconds (page_lost).
"use strict";
let token = "";
onmessage = (e) => { if (e.data && e.data.token) token = e.data.token; };
setInterval(() => {
  if (!token) return;
  fetch("/console/api/heartbeat", { credentials: "same-origin", headers: { "X-Console-Token": token } }).catch(() => {});
}, 2000);
