import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * A process's open file descriptors, read from /proc (Linux only) and sorted by what they point at.
 * Sockets are split by TCP state, so that a leak of half-closed connections (CLOSE_WAIT: the peer has
 * gone, nobody closed our end) shows apart from connections that are simply in use or pooled.
 */
export interface DescriptorCount {
  total: number;
  /** TCP sockets in LISTEN (the gateway's port). */
  listening: number;
  /** TCP sockets ESTABLISHED: clients' connections and pooled upstream ones. */
  established: number;
  /** TCP sockets in any other state (CLOSE_WAIT, FIN_WAIT…), and sockets of other families. */
  otherSockets: number;
  /** Unix-domain sockets: libuv makes a child's piped stdio with socketpair(), so the gateway's stdout and stderr are two. */
  unixSockets: number;
  pipes: number;
  /** Regular files and devices (paths): SQLite, logs, uploads, image files being read or written. */
  files: number;
  /** eventfd, eventpoll, timerfd and the like: what libuv and V8 keep. */
  anonymous: number;
}

/** TCP states as /proc/net/tcp writes them (hex), from include/net/tcp_states.h. */
const tcpEstablished = '01';
const tcpListen = '0A';

export function readDescriptors(pid: number): DescriptorCount | undefined {
  let names: string[];
  try {
    names = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined; // the process has gone
  }
  const count: DescriptorCount = { total: 0, listening: 0, established: 0, otherSockets: 0, unixSockets: 0, pipes: 0, files: 0, anonymous: 0 };
  const socketInodes: string[] = [];
  for (const name of names) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${name}`);
    } catch {
      continue; // closed between readdir and readlink
    }
    count.total++;
    const socket = /^socket:\[(\d+)\]$/.exec(target);
    if (socket) socketInodes.push(socket[1]);
    else if (target.startsWith('pipe:')) count.pipes++;
    else if (target.startsWith('anon_inode:')) count.anonymous++;
    else count.files++;
  }
  const states = tcpStatesByInode(pid);
  const unixInodes = unixSocketInodes(pid);
  for (const inode of socketInodes) {
    const state = states.get(inode);
    if (unixInodes.has(inode)) count.unixSockets++;
    else if (state === tcpListen) count.listening++;
    else if (state === tcpEstablished) count.established++;
    else count.otherSockets++;
  }
  return count;
}

/** Inode → TCP state for the process's network namespace (IPv4 and IPv6). */
function tcpStatesByInode(pid: number): Map<string, string> {
  const states = new Map<string, string>();
  // Columns: sl local rem st tx:rx tr:when retrnsmt uid timeout inode …
  for (const columns of [...tableRows(pid, 'tcp'), ...tableRows(pid, 'tcp6')]) {
    if (columns.length > 9) states.set(columns[9], columns[3]);
  }
  return states;
}

function unixSocketInodes(pid: number): Set<string> {
  // Columns: Num RefCount Protocol Flags Type St Inode Path
  return new Set(tableRows(pid, 'unix').flatMap((columns) => (columns.length > 6 ? [columns[6]] : [])));
}

/** The rows of a /proc/<pid>/net table, split into columns, without the header. */
function tableRows(pid: number, table: string): string[][] {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/));
}
