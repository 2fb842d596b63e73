import { readFileSync } from 'node:fs';
import { loadAiSdkConverter } from '../../bench/lib/ai-sdk-converter.js';
import { toGeminiSchema } from '../../src/schema/to-gemini-schema.js';

const servers = JSON.parse(readFileSync('/tmp/real-tools.json', 'utf8'));
const schemas = servers.flatMap((s: any) => s.tools.map((t: any) => t.inputSchema));
const ai = loadAiSdkConverter();
const time = (f: () => void, n = 3000) => {
  for (let i = 0; i < 50; i++) f();
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / n / schemas.length;
};
for (let k = 0; k < 2; k++) {
  console.log(
    'ours us/schema',
    time(() => schemas.forEach((s: any) => toGeminiSchema(s))).toFixed(1),
  );
  console.log('aisdk us/schema', time(() => schemas.forEach((s: any) => ai.convert(s))).toFixed(1));
}
