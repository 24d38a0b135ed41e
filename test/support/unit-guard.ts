// Set-up of the unit project (vitest.config.ts): its tests start no process and open no socket,
// so that they stay fast and never wait on anything. A test that tries fails, naming the file's
// right place: the integration project.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

function refuse(what: string): never {
  throw new Error(
    `a unit test may not ${what}: list its file under INTEGRATION in vitest.config.ts (docs/testing.md)`,
  );
}

for (const name of ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'] as const)
  Object.assign(childProcess, { [name]: () => refuse(`start a process (child_process.${name})`) });
// Named imports of node:child_process see the replacements too.
syncBuiltinESMExports();
net.Socket.prototype.connect = () => refuse('open a connection (net.Socket.connect)');
net.Server.prototype.listen = () => refuse('listen on a port (net.Server.listen)');
