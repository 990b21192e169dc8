/**
 * Who holds a TCP port, for the launcher's messages: the listening socket's inode from
 * /proc/net/tcp{,6}, then the process with that socket among its file descriptors (Linux; null
 * elsewhere, or when the holder belongs to another user).
 */
import fs from 'node:fs';
import { processArgs } from '../../core/processes';

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const localPort = parseInt(cols[1].split(':')[1] ?? '', 16);
      if (localPort === port && cols[3] === '0A') inodes.add(cols[9]); // 0A: LISTEN
    }
  }
  return inodes;
}

/** The pid and command line of the process listening on `port`, or null when unknown. */
export function portHolder(port: number): { pid: number; command: string } | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m && inodes.has(m[1])) return { pid: Number(pid), command: (processArgs(Number(pid)) ?? ['?']).join(' ').slice(0, 160) };
    }
  }
  return null;
}

/** "pid 123: node --import tsx bin/inbound.ts", or a hint when the holder cannot be seen. */
export function describePortHolder(port: number): string {
  const h = portHolder(port);
  return h ? `pid ${h.pid}: ${h.command}` : `a process this user cannot see (try: ss -ltnp 'sport = :${port}')`;
}
