import { cpus, totalmem } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  totalMemoryGb: number;
  node: string;
  platform: string;
  date: string;
}

/** What a reader needs to compare two runs: the numbers mean little without the machine. */
export function describeMachine(): MachineInfo {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    totalMemoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
  };
}
