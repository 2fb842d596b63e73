/** Part of `npm run build`: tsc does not emit the generated JavaScript validators; copy them to dist/. */
import { copyFile, mkdir } from 'node:fs/promises';

await mkdir('dist/generated', { recursive: true });
for (const file of ['validators.js', 'validators.d.ts']) {
  await copyFile(`src/generated/${file}`, `dist/generated/${file}`);
}
