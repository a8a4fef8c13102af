/**
 * Takes the screenshot of the search page shown in README.md (docs/search-page.png) with Debian's
 * chromium through playwright-core. Start a server on the sample data first:
 *
 *     yarrow standalone -c samples/movies.yml &
 *     curl -XPOST 'localhost:8080/movies/_index?refresh=true' --data-binary @samples/movies.jsonl
 *     node --import tsx scripts/ui-screenshot.ts 'http://localhost:8080/?index=movies&q=world' docs/search-page.png
 *
 * Options by environment: CHROMIUM (default /usr/bin/chromium), WIDTH (1100), COLOR_SCHEME (light).
 */
import { chromium } from 'playwright-core';

const [url = 'http://localhost:8080/?index=movies&q=world', out = 'docs/search-page.png'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({
    viewport: { width: Number(process.env.WIDTH ?? 1100), height: 800 },
    colorScheme: process.env.COLOR_SCHEME === 'dark' ? 'dark' : 'light',
  });
  await page.goto(url);
  await page.locator('.hits .hit').first().waitFor();
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
