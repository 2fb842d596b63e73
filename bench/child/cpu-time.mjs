// Preloaded with `node --import` into a timed child: prints the process's CPU time (user +
// system, every thread, since the process started) on stderr as it exits, so a child is
// measured by the work it did, not by how long it waited for a core.
process.on('exit', () => {
  const usage = process.cpuUsage();
  process.stderr.write(`\n\tCPU time (microseconds): ${usage.user + usage.system}\n`);
});
