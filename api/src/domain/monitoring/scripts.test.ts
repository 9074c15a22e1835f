import { buildMobatchScripts, commandsOf, RET_COMMAND, scriptGroupOf } from './scripts';

describe('buildMobatchScripts', () => {
  const nodes = [
    { name: 'LX0002', technologies: ['4G'] },
    { name: 'LX0001', technologies: ['4G', 'NB-IoT'] },
    { name: 'NR_LX0003', technologies: ['5G', '4G'] },
    { name: 'RNC01', technologies: ['3G'] },
    { name: 'BSC01', technologies: ['2G'] },
    { name: 'MYSTERY', technologies: [] },
  ];
  const files = new Map(buildMobatchScripts(nodes));

  it('writes the README, sites.txt, and a site file and a command file per technology group', () => {
    expect([...files.keys()]).toEqual([
      'README.txt',
      'sites.txt',
      'sites_2G.txt',
      'cmd_2G.mos',
      'sites_3G.txt',
      'cmd_3G.mos',
      'sites_4G.txt',
      'cmd_4G.mos',
      'sites_4G_5G.txt',
      'cmd_4G_5G.mos',
      'sites_other.txt',
      'cmd_other.mos',
    ]);
    expect(files.get('sites.txt')).toBe('BSC01\nLX0001\nLX0002\nMYSTERY\nNR_LX0003\nRNC01\n');
    expect(files.get('sites_4G.txt')).toBe('LX0001\nLX0002\n');
    expect(files.get('sites_4G_5G.txt')).toBe('NR_LX0003\n');
  });

  it('lists every node once across the technology files', () => {
    const listed = [...files.entries()].filter(([name]) => name.startsWith('sites_')).flatMap(([, text]) => text.trim().split('\n'));
    expect(listed.sort()).toEqual(files.get('sites.txt')!.trim().split('\n'));
  });

  it('puts the commands the checks read in each command file, ending with q', () => {
    const lte = files.get('cmd_4G.mos')!.trim().split('\n');
    expect(lte.slice(0, 6)).toEqual(['lt all', 'alt', 'st cell', 'st term', 'st mme', RET_COMMAND]);
    expect(lte).toContain(
      'get EUtranCell(FDD|TDD)=[^,]+$ ^(cellBarred|primaryPlmnReserved|qRxLevMin|physicalLayerCellIdGroup|physicalLayerSubCellId|tac|earfcndl)$',
    );
    expect(lte).toContain('get NbIotCell=[^,]+$ ^(cellBarred)$');
    expect(lte[lte.length - 1]).toBe('q');
    expect(files.get('cmd_4G_5G.mos')).toContain('get NRCellDU=[^,]+$ ^(cellBarred|cellReservedForOperator|nRPCI|nRTAC)$');
    expect(files.get('cmd_3G.mos')).toContain(
      'get UtranCell=[^,]+$ ^(cellReserved|primaryCpichPower|maximumTransmissionPower|primaryScramblingCode|uarfcnDl)$',
    );
    expect(files.get('cmd_3G.mos')).not.toContain('st mme');
    expect(files.get('cmd_2G.mos')).toContain('st GsmSector|Trx');
    expect(commandsOf('other')).toEqual(
      expect.arrayContaining(['st mme', 'st GsmSector|Trx', 'get NRCellDU=[^,]+$ ^(cellBarred|cellReservedForOperator|nRPCI|nRTAC)$']),
    );
  });

  it('explains in the README how to run MoBatch and zip each log folder', () => {
    const readme = files.get('README.txt')!;
    expect(readme).toContain('mobatch -p 20 -t 30 sites_4G.txt cmd_4G.mos logs_4G');
    expect(readme).toContain('cd logs_4G && zip -r ../mobatch_4G.zip .');
    expect(readme).toContain('10,000,000 bytes');
    expect(readme).toContain('mobatch_result.txt');
    expect(readme).toContain('Operations project');
    expect(buildMobatchScripts(nodes, { parallel: 5, timeoutMinutes: 10 })[0]![1]).toContain('mobatch -p 5 -t 10 sites_3G.txt cmd_3G.mos logs_3G');
  });

  it('groups technologies whatever their case, NB-IoT with 4G', () => {
    expect(scriptGroupOf(['nb-iot'])).toBe('4G');
    expect(scriptGroupOf(['5g', '2G', '3G'])).toBe('2G_3G_5G');
    expect(scriptGroupOf(['multi'])).toBe('other');
  });

  it('writes only the README and an empty sites.txt for an empty inventory', () => {
    expect(buildMobatchScripts([]).map(([name, text]) => [name, name === 'sites.txt' ? text : 'readme'])).toEqual([
      ['README.txt', 'readme'],
      ['sites.txt', ''],
    ]);
  });
});
