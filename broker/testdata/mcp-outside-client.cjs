// An MCP client nobody on this project wrote: the npm @modelcontextprotocol/sdk, driven by
// TestMCPOutsideClient. Usage: node mcp-outside-client.cjs URL list | call NAME ARGS_JSON [KEY]
// (KEY goes in params._meta.idempotencyKey). Every run is a new agent process: ids from 1.
// The token comes from the environment (MCP_TOKEN), never from the command line or a URL.
// Prints one JSON object: {"ok":true,...} or {"ok":false,"status":HTTP_STATUS,"message":...}.
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

async function main() {
  const [url, op, name, args, key] = process.argv.slice(2);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${process.env.MCP_TOKEN}` }, redirect: 'error' },
  });
  const client = new Client({ name: 'outside-client', version: '1.0.0' });
  try {
    await client.connect(transport);
    if (op === 'list') {
      const res = await client.listTools();
      return { ok: true, tools: res.tools.map((t) => t.name) };
    }
    const params = { name, arguments: JSON.parse(args || '{}') };
    if (key) params._meta = { idempotencyKey: key };
    const res = await client.callTool(params);
    return { ok: true, isError: !!res.isError, text: res.content.map((c) => c.text).join(' '), structured: res.structuredContent };
  } catch (e) {
    return { ok: false, status: e.code, message: String(e.message) };
  } finally {
    await client.close().catch(() => {});
  }
}

main().then((out) => { process.stdout.write(JSON.stringify(out) + '\n'); });
