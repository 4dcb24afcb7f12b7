/**
 * The machine facts recorded next to the figures (docs/contracts.md#bench `machine`).
 */
import os from 'node:os';
import type { MachineInfo } from './figure.js';

/** CPU model, core count, Node version, OS, architecture and memory of this machine, the run's start and
 * the load average then. */
export function machineInfo(startedAt: Date = new Date()): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    arch: os.arch(),
    totalMemoryMiB: Math.round(os.totalmem() / (1024 * 1024)),
    date: startedAt.toISOString(),
    loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
  };
}
