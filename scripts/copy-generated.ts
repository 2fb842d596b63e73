/** Part of `npm run build`: tsc does not emit the generated JavaScript validators; copy them to dist/. */
import { copyFile, mkdir, readdir } from 'node:fs/promises';

await mkdir('dist/generated', { recursive: true });
for (const file of await readdir('src/generated')) {
  if (/^validators-[\w-]+\.(js|d\.ts)$/.test(file)) {
    await copyFile(`src/generated/${file}`, `dist/generated/${file}`);
  }
}
