// What docker compose would run, read from docker-compose.yml and the root Dockerfile, for the production-parity run
// (scripts/parity.mjs): the .env file, compose's ${VAR} interpolation, each service's environment, command, working
// directory, ports, dependencies and healthcheck, and the image's own ENV/WORKDIR/CMD for the build target and
// arguments compose gives it. Only the compose features docker-compose.yml uses are read; anything else it meets
// (a service without `build`, an unknown interpolation form) is an error, never a silent guess.
import fs from 'node:fs';
import { parse } from 'yaml';

// ---------------------------------------------------------------------------------------------------------------
// .env files (compose's dotenv rules, the subset .env.example documents)

/**
 * KEY=value lines: `#` comments, blank lines, optional `export `; unquoted values trimmed and cut at ` #`;
 * 'single quotes' literal; "double quotes" with \n, \t, \", \\ escapes and line breaks kept (a multi-line PEM).
 */
export function parseEnvFile(text) {
  const vars = new Map();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!m) throw new Error(`.env line ${i + 1}: not KEY=value: ${line}`);
    const [, key, rest] = m;
    let value;
    if (rest.startsWith('"')) {
      let body = rest.slice(1);
      while (!/(^|[^\\])(\\\\)*"\s*(#.*)?$/.test(body)) {
        if (++i >= lines.length) throw new Error(`.env: unterminated double quote for ${key}`);
        body += `\n${lines[i]}`;
      }
      body = body.replace(/"\s*(#.*)?$/, '');
      value = body.replace(/\\([nt"\\])/g, (_, c) => ({ n: '\n', t: '\t', '"': '"', '\\': '\\' })[c]);
    } else if (rest.startsWith("'")) {
      const end = rest.indexOf("'", 1);
      if (end < 0) throw new Error(`.env: unterminated single quote for ${key}`);
      value = rest.slice(1, end);
    } else {
      value = rest.replace(/\s+#.*$/, '').trim();
    }
    vars.set(key, value);
  }
  return vars;
}

/** A .env file for `vars` (values double-quoted and escaped, so a PEM key survives on one line). */
export function formatEnvFile(vars, header = []) {
  const quote = (v) => `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
  return [...header.map((h) => `# ${h}`), ...[...vars].map(([k, v]) => `${k}=${quote(v)}`), ''].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Interpolation (compose specification, "Interpolation")

/**
 * `$$` → `$`; `$VAR`, `${VAR}`; `${VAR:-default}` (unset or empty), `${VAR-default}` (unset); `${VAR:?err}`,
 * `${VAR?err}`; `${VAR:+alt}`, `${VAR+alt}`. Defaults may themselves be interpolated. An unset `${VAR}` is empty
 * (compose warns); `missing` collects those names.
 */
export function interpolate(text, vars, missing = new Set()) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c !== '$') {
      out += c;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (next === '{') {
      // Find the matching brace (defaults may nest ${...}).
      let depth = 1;
      let j = i + 2;
      for (; j < text.length && depth > 0; j++) {
        if (text[j] === '{') depth++;
        else if (text[j] === '}') depth--;
      }
      if (depth !== 0) throw new Error(`Unterminated \${ in ${JSON.stringify(text)}`);
      const inner = text.slice(i + 2, j - 1);
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(inner);
      if (!m) throw new Error(`Unsupported interpolation \${${inner}} in ${JSON.stringify(text)}`);
      const [, name, op, arg = ''] = m;
      const isSet = vars.has(name);
      const value = isSet ? vars.get(name) : undefined;
      const present = op?.startsWith(':') ? isSet && value !== '' : isSet;
      if (!op) {
        if (!isSet) missing.add(name);
        out += value ?? '';
      } else if (op.endsWith('-')) out += present ? value : interpolate(arg, vars, missing);
      else if (op.endsWith('+')) out += present ? interpolate(arg, vars, missing) : '';
      else if (!present) throw new Error(`${name}: ${interpolate(arg, vars, missing) || 'required'}`);
      else out += value;
      i = j;
      continue;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1));
    if (!m) {
      out += c;
      i++;
      continue;
    }
    if (!vars.has(m[0])) missing.add(m[0]);
    out += vars.get(m[0]) ?? '';
    i += 1 + m[0].length;
  }
  return out;
}

/** Every string of a parsed YAML tree interpolated (compose interpolates values, not keys). */
function interpolateTree(node, vars, missing) {
  if (typeof node === 'string') return interpolate(node, vars, missing);
  if (Array.isArray(node)) return node.map((n) => interpolateTree(n, vars, missing));
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateTree(v, vars, missing)]));
  return node;
}

// ---------------------------------------------------------------------------------------------------------------
// docker-compose.yml

/** `environment` as a map or a list → { KEY: value }, a key without a value taken from `vars` (or left out). */
function environmentOf(service, vars) {
  const raw = service.environment ?? {};
  const entries = Array.isArray(raw)
    ? raw.map((e) => {
        const eq = String(e).indexOf('=');
        return eq < 0 ? [String(e), null] : [String(e).slice(0, eq), String(e).slice(eq + 1)];
      })
    : Object.entries(raw);
  const env = {};
  for (const [key, value] of entries) {
    if (value === null || value === undefined) {
      // `KEY:` with no value: compose passes the variable from its own environment (.env), or leaves it unset.
      if (vars.has(key)) env[key] = vars.get(key);
    } else env[key] = typeof value === 'string' ? value : String(value);
  }
  return env;
}

function dependsOnOf(service) {
  const raw = service.depends_on ?? {};
  if (Array.isArray(raw)) return Object.fromEntries(raw.map((name) => [name, 'service_started']));
  return Object.fromEntries(
    Object.entries(raw).map(([name, d]) => [name, d?.condition ?? 'service_started']),
  );
}

/** "[ip:]host:container[/tcp]" or the long form → [{ host, container }]. */
function portsOf(service) {
  return (service.ports ?? []).map((p) => {
    if (typeof p === 'object') return { host: Number(p.published), container: Number(p.target) };
    const parts = String(p)
      .replace(/\/tcp$/, '')
      .split(':');
    return { host: Number(parts.at(-2)), container: Number(parts.at(-1)) };
  });
}

/**
 * The services of a compose file as compose would run them with `vars` as its .env (and no other environment):
 * { name, image, build: { target, args }, command, environment, dependsOn, healthcheck: string[] | undefined,
 * ports: [{ host, container }] }. `missing` lists ${VAR}s used without a value or default.
 */
export function readCompose(file, vars) {
  const doc = parse(fs.readFileSync(file, 'utf8'), { merge: true });
  const missing = new Set();
  const services = {};
  for (const [name, raw] of Object.entries(doc.services ?? {})) {
    const s = interpolateTree(raw, vars, missing);
    const test = s.healthcheck?.disable ? undefined : s.healthcheck?.test;
    services[name] = {
      name,
      image: s.image,
      build: s.build ? { target: s.build.target, args: s.build.args ?? {} } : undefined,
      command: s.command === undefined ? undefined : [].concat(s.command).map(String),
      environment: environmentOf(s, vars),
      dependsOn: dependsOnOf(s),
      healthcheck: test === undefined ? undefined : [].concat(test).map(String),
      ports: portsOf(s),
    };
  }
  return { services, missing: [...missing] };
}

// ---------------------------------------------------------------------------------------------------------------
// The Dockerfile: what an image's stage chain sets (ENV, WORKDIR, CMD, and where COPY puts a build's output)

function instructions(text) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(#|$)/.test(lines[i])) continue;
    let logical = '';
    for (; i < lines.length; i++) {
      const raw = lines[i].replace(/\s+$/, '');
      if (/^\s*#/.test(raw)) continue;
      if (!raw.endsWith('\\')) {
        logical += raw;
        break;
      }
      logical += `${raw.slice(0, -1)} `;
    }
    const m = /^\s*(\S+)\s*(.*)$/.exec(logical);
    if (!m) continue;
    const keyword = m[1].toUpperCase();
    // Here-documents (COPY <<'EOF' /path): skip their bodies.
    for (const h of m[2].matchAll(/<<-?(['"]?)([A-Za-z_]\w*)\1/g))
      while (i + 1 < lines.length && lines[++i].trim() !== h[2]);
    out.push({ keyword, args: m[2].trim() });
  }
  return out;
}

/** KEY=value pairs of ARG/ENV (quotes removed). */
function pairs(args) {
  return [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)(?:=("[^"]*"|'[^']*'|\S*))?/g)].map((m) => [
    m[1],
    m[2] === undefined ? undefined : m[2].replace(/^(["'])(.*)\1$/, '$2'),
  ]);
}

/**
 * The runtime settings of `target` built with `buildArgs`: { env, workdir, cmd, copies: [{ from, src, dest }] }
 * following the target's FROM chain through earlier stages (ARG values: build argument, else default).
 */
export function imageOf(dockerfileText, target, buildArgs = {}) {
  const stages = new Map();
  const globals = new Map();
  let current;
  for (const ins of instructions(dockerfileText)) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(ins.args);
      const parent = stages.get(m[1]);
      current = {
        name: m[2] ?? String(stages.size),
        args: new Map(),
        env: { ...(parent?.env ?? {}) },
        workdir: parent?.workdir ?? '/',
        cmd: parent?.cmd,
        copies: [...(parent?.copies ?? [])],
      };
      stages.set(current.name, current);
      continue;
    }
    if (!current) {
      if (ins.keyword === 'ARG') for (const [k, v] of pairs(ins.args)) globals.set(k, v);
      continue;
    }
    const sub = (s) =>
      s.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, a, b) => {
        const k = a ?? b;
        return current.args.get(k) ?? current.env[k] ?? whole;
      });
    if (ins.keyword === 'ARG')
      for (const [k, v] of pairs(ins.args)) current.args.set(k, buildArgs[k] ?? v ?? globals.get(k) ?? '');
    else if (ins.keyword === 'ENV') for (const [k, v] of pairs(ins.args)) current.env[k] = sub(v ?? '');
    else if (ins.keyword === 'WORKDIR') current.workdir = sub(ins.args);
    else if (ins.keyword === 'CMD') current.cmd = JSON.parse(ins.args);
    else if (ins.keyword === 'COPY') {
      const from = /--from=(\S+)/.exec(ins.args)?.[1];
      const paths = ins.args
        .split(/\s+/)
        .filter((p) => p && !p.startsWith('--'))
        .map(sub);
      // One source and a destination (from the build context, or --from a stage): where a file lands.
      if (paths.length === 2) current.copies.push({ from, src: paths[0], dest: paths[1] });
    }
  }
  const stage = stages.get(target);
  if (!stage) throw new Error(`Dockerfile: no stage ${target}`);
  return { env: stage.env, workdir: stage.workdir, cmd: stage.cmd, copies: stage.copies };
}
