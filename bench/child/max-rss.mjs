// Preloaded with `node --import` where /usr/bin/time is missing: prints the process's peak RSS
// (kB) on stderr as it exits, in GNU time's wording so one parser reads both.
process.on('exit', () => {
  process.stderr.write(
    `\n\tMaximum resident set size (kbytes): ${process.resourceUsage().maxRSS}\n`,
  );
});
