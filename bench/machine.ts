/** The machine and run description every benchmark prints and puts in its JSON rows. @allocates */
import os from 'node:os';
import path from 'node:path';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memory_gib: number;
  node: string;
  platform: string;
  date: string;
  loadavg_1m: number;
  command: string;
}

export function machineInfo(): MachineInfo {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.arch()} ${os.release()}`,
    date: new Date().toISOString(),
    loadavg_1m: Number((os.loadavg()[0] ?? 0).toFixed(2)),
    command: `node ${process.execArgv.join(' ')} ${process.argv.slice(1).map((a) => path.relative(process.cwd(), a) || a).join(' ')}`,
  };
}

/** Two lines: machine, then date and command. */
export function machineLines(m: MachineInfo): string {
  return `machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gib} GiB; Node ${m.node}; ${m.platform}; load ${m.loadavg_1m}\n`
    + `date: ${m.date}; command: ${m.command}`;
}
