// Opens an HTML report in headless Chromium (playwright-core) and prints what a reader would see, as JSON.
// Usage: node browser_check.js REPORT.html SCREENSHOT.png FILTER_TEXT CATEGORY_TO_TOGGLE
"use strict";
const { chromium } = require("playwright-core");

async function main() {
  const [reportPath, screenshotPath, filterText, category] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--no-first-run",
    ],
  });
  const observed = { dialogs: [], requests: [], console: [], pageErrors: [] };
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("dialog", async (dialog) => { observed.dialogs.push(dialog.message()); await dialog.dismiss(); });
    page.on("console", (message) => observed.console.push(`${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => observed.pageErrors.push(String(error)));
    // The report must load nothing: every request other than the file itself is recorded and refused.
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:")) return route.continue();
      observed.requests.push(url);
      return route.abort();
    });
    await page.goto("file://" + reportPath, { waitUntil: "load" });

    const read = () => page.evaluate(() => {
      const number = (selector) => Number(document.querySelector(selector).getAttribute("data-count"));
      const table = (selector, key) => Object.fromEntries(
        Array.from(document.querySelectorAll(selector)).map((cell) => [cell.getAttribute(key), Number(cell.getAttribute("data-count"))]));
      const visible = Array.from(document.querySelectorAll("article.finding")).filter((item) => item.offsetParent !== null);
      return {
        totalFindings: number("#total-findings"),
        filesScanned: number("#files-scanned"),
        categories: table(".category-count", "data-category"),
        severities: table(".severity-count", "data-severity"),
        shownCount: number("#shown-count"),
        shownText: document.querySelector("#shown-count").textContent,
        visibleCodes: visible.map((item) => item.getAttribute("data-code")),
        visibleFiles: Array.from(document.querySelectorAll("section.file")).filter((f) => f.offsetParent !== null).map((f) => f.getAttribute("data-path")),
        overallScore: Number(document.querySelector("#overall-score").getAttribute("data-score")),
        fileScores: Object.fromEntries(Array.from(document.querySelectorAll("tr.readiness-row")).map((row) => [row.getAttribute("data-path"), Number(row.getAttribute("data-score"))])),
        scripts: document.scripts.length,
        svgCharts: document.querySelectorAll("svg.chart").length,
        hasDefinition: document.querySelector("#readiness-definition").innerText,
        bodyText: document.body.innerText,
      };
    });

    const initial = await read();
    await page.screenshot({ path: screenshotPath, fullPage: true });
    await page.fill("#filter", filterText);
    const filtered = await read();
    await page.fill("#filter", "");
    await page.click(`button.toggle[data-category="${category}"]`);
    const toggled = await read();
    await page.click(`button.toggle[data-category="${category}"]`);
    await page.fill("#filter", "no-such-api-anywhere");
    const nothing = await read();
    const noMatchVisible = await page.isVisible("#no-match");
    process.stdout.write(JSON.stringify({ initial, filtered, toggled, nothing, noMatchVisible, ...observed }));
  } finally {
    await browser.close();
  }
}

main().catch((error) => { console.error(error); process.exit(1); });
