/** Where a bench's machine time goes, read from Linux's /proc (0 elsewhere). */
import fs from 'node:fs';

function ticksOf(stat: string): number {
  // Fields after the command name: utime and stime are the 12th and 13th (clock ticks).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU seconds used so far by one process (a server instance the bench started). */
export function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined || !fs.existsSync(`/proc/${String(pid)}/stat`)) return 0;
  return ticksOf(fs.readFileSync(`/proc/${String(pid)}/stat`, 'utf8')) / 100;
}

/** CPU seconds used so far by this machine's PostgreSQL processes. */
export function postgresCpuSeconds(): number {
  let ticks = 0;
  for (const pid of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes('(postgres)')) ticks += ticksOf(stat);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks / 100;
}
