import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

function rabbitmqctlPath(): string {
  return process.env.RABBITMQCTL ?? 'rabbitmqctl';
}

/** True when `rabbitmqctl` can talk to a broker from this machine (a local broker, not a container). */
export async function rabbitmqctlAvailable(): Promise<boolean> {
  try {
    await run(rabbitmqctlPath(), ['-q', 'list_connections', 'pid'], { timeout: 15_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes the broker close every connection whose client-provided `connection_name` starts with `namePrefix`
 * (a server-initiated close, like a broker restart or a failover). Needs `rabbitmqctl` for the broker; check
 * `rabbitmqctlAvailable()` first. Returns how many connections were closed.
 */
export async function closeConnectionsNamed(namePrefix: string, reason = 'closed by test'): Promise<number> {
  // Plain output: "<rabbit@host.123.456.0>\t[{"connection_name","jobs-consumer"},...]" (the JSON formatter
  // prints pids in a form close_connection does not accept).
  const { stdout } = await run(rabbitmqctlPath(), ['-q', 'list_connections', 'pid', 'client_properties'], {
    timeout: 15_000,
  });
  const pids: string[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^(<[^>]+>)\t.*\{"connection_name","((?:[^"\\]|\\.)*)"\}/.exec(line);
    if (m && (m[2] as string).startsWith(namePrefix)) pids.push(m[1] as string);
  }
  for (const pid of pids) {
    await run(rabbitmqctlPath(), ['-q', 'close_connection', pid, reason], { timeout: 15_000 });
  }
  return pids.length;
}
