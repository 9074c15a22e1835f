import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { consoleForThisFile } from '../support/console';
import { button } from '../support/locators';
import { pickOption } from '../support/select';
import { ADMIN, signInByToken } from '../support/session';

// Issue 46, corrective AMOS scripts: a neighbour validation on the demo network (LX0001 planned to a
// sector of its own it has no relation to, and to LX0005, whose eNB it has no proxy of), then 'Download
// corrective scripts' on the run's result: the zip holds LX0001's script with the crn commands, its undo
// and the README.

let workDir: string;
const shots = process.env.RUN_SCRIPTS_SHOTS;

test.use({ timezoneId: 'UTC', acceptDownloads: true });
test.describe.configure({ mode: 'serial' });

const app = consoleForThisFile();
test.beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-scripts-e2e-'));
});
test.afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});
test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

/** The entries of a zip (stored or deflated), read from its central directory: the test's own reader, independent of the API's. */
function unzip(file: string): Map<string, string> {
  const zip = fs.readFileSync(file);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, string>();
  for (let i = 0; i < count; i += 1) {
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    out.set(name, (method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8'));
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

test('a neighbour validation: Download corrective scripts gives a zip with the node script, its undo and a README', async ({ page }) => {
  const planned = new ExcelJS.Workbook();
  const sheet = planned.addWorksheet('Planned Relations');
  sheet.addRow(['Source Cell', 'Target Cell']);
  sheet.addRow(['LX0001_L800_1', 'LX0001_L800_2']);
  sheet.addRow(['LX0001_L800_1', 'LX0001_L1800_2']);
  sheet.addRow(['LX0001_L800_1', 'LX0005_L800_1']);
  const plannedFile = path.join(workDir, 'planned.xlsx');
  await planned.xlsx.writeFile(plannedFile);

  await page.goto(`${app.url}/validation/nbrRelationsValidation`);
  await pickOption(page, 'Site', 'LX0001', /^LX0001 – /);
  await page.locator('input[type="file"]').setInputFiles(plannedFile);
  await button(page, 'Upload and validate').click();
  const result = page.getByTestId('run-result');
  await expect(result.locator('.ant-tag').filter({ hasText: /^MISSING: 2$/ })).toHaveCount(1);

  const scripts = result.getByRole('button', { name: /^Download corrective scripts/ });
  await expect(scripts).toBeVisible();
  if (shots) {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(scripts).toBeVisible();
      await page.screenshot({ path: `${shots}/scripts-button-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  }
  const [download] = await Promise.all([page.waitForEvent('download'), scripts.click()]);
  expect(download.suggestedFilename()).toMatch(/^NbrRelationsValidation_LX0001_\d{8}-\d{6}_scripts\.zip$/);
  const file = path.join(workDir, download.suggestedFilename());
  await download.saveAs(file);

  const zip = unzip(file);
  expect([...zip.keys()]).toEqual(['README.txt', 'sites.txt', 'LX0001.mos', 'LX0001_undo.mos']);
  const script = zip.get('LX0001.mos')!;
  const commands = script.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  expect(commands.slice(0, 2)).toEqual(['confbd+', 'gs+']);
  expect(commands.findIndex((l) => l.startsWith('cvms CW_NBR_'))).toBeLessThan(commands.findIndex((l) => l.startsWith('crn ')));
  expect(script).toContain('# MISSING LX0001_L800_1 -> LX0001_L1800_2: relation to LX0001_L1800_2 (same node)');
  expect(script).toContain('crn ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=1850,EUtranCellRelation=LX0001_L1800_2');
  expect(script).toMatch(/^# MISSING LX0001_L800_1 -> LX0005_L800_1: proxy of LX0005, eNB \d+$/m);
  expect(zip.get('LX0001_undo.mos')).toContain('del ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=1850,EUtranCellRelation=LX0001_L1800_2$');
  expect(zip.get('README.txt')).toContain('amos LX0001 LX0001.mos');
  expect(zip.get('README.txt')).toContain('mobatch');
});
