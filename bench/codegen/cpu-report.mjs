// Preloaded into the benchmarked process: reports its CPU time (user + system, ms) on stderr at exit.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\nBENCH_CPU_MS ${((user + system) / 1000).toFixed(1)}\n`);
});
