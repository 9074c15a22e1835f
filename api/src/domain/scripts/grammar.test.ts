import { checkMosScript } from './grammar';

const HEAD = ['confbd+', 'gs+', 'lt all', '$date = `date +%y%m%d_%H%M`', '# CV backup', 'cvms CW_T_1_LX0001_pre_$date'];
const REL = 'ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1,EUtranFreqRelation=6300,EUtranCellRelation=LX0001_L800_2';
const messages = (lines: string[]) => checkMosScript(lines.join('\n')).map((e) => `${e.line}: ${e.message}`);

describe('the moshell command grammar checker', () => {
  it('accepts a script of the commands it knows', () => {
    expect(
      messages([
        ...HEAD,
        '# MISSING A -> B: relation',
        `crn ${REL}`,
        'neighborCellRef ENodeBFunction=1,EUtranCellFDD=LX0001_L800_2',
        'isRemoveAllowed false',
        'end',
        '# BLOCK A -> B: failing handovers',
        `set ${REL}$ isHoAllowed false`,
        '# CPICH ERROR X: lower',
        'set RncFunction=1,UtranCell=LX0001_U2100F1_1$ primaryCpichPower 330',
        '# undo REMOVE A -> B: delete',
        `del ${REL}$`,
        'confbd-',
        'gs-',
      ]),
    ).toEqual([]);
  });

  it.each<[string, string[], string]>([
    ['a change before the CV backup', ['confbd+', 'gs+', 'lt all', '# EXTRA a', `del ${REL}$`], '5: del before the CV backup (cvms)'],
    ['a command without its finding comment', [...HEAD, `del ${REL}$`], '7: del without a comment line naming its finding right above it'],
    ['a filter without its $ anchor', [...HEAD, '# EXTRA a', `del ${REL}`], 'is not anchored with $'],
    [
      'an unescaped regex character in a filter',
      [...HEAD, '# WRONG a', 'set ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=a.b$ userLabel x'],
      'has an unescaped "."',
    ],
    ['an unknown command word', [...HEAD, 'rdel all'], '"rdel" is not a command these scripts use'],
    ['an unknown MO class', [...HEAD, '# MISSING a', 'crn ENodeBFunction=1,Foo=1', 'end'], 'Foo is not an MO class the scripts may touch'],
    [
      'an MO under the wrong parent',
      [...HEAD, '# MISSING a', 'crn ENodeBFunction=1,EUtranCellRelation=1', 'neighborCellRef ENodeBFunction=1,EUtranCellFDD=A', 'end'],
      'cannot sit under ENodeBFunction',
    ],
    [
      'a crn without a mandatory attribute',
      [...HEAD, '# MISSING a', `crn ${REL}`, 'isHoAllowed true', 'end'],
      'crn EUtranCellRelation without neighborCellRef',
    ],
    ['a crn never closed', [...HEAD, '# MISSING a', `crn ${REL}`, 'neighborCellRef ENodeBFunction=1,EUtranCellFDD=A'], 'is not closed with end'],
    [
      'an attribute the class does not have',
      [...HEAD, '# MISSING a', `crn ${REL}`, 'neighborCellRef ENodeBFunction=1,EUtranCellFDD=A', 'pci 3', 'end'],
      'EUtranCellRelation has no attribute pci',
    ],
    ['a reference to the wrong class', [...HEAD, '# MISSING a', `crn ${REL}`, 'neighborCellRef RncFunction=1,UtranCell=A', 'end'], 'a reference to UtranCell'],
    ['a value out of range', [...HEAD, '# CPICH a', 'set RncFunction=1,UtranCell=A$ primaryCpichPower 900'], '900 is outside -100..500'],
    ['a boolean spelt otherwise', [...HEAD, '# BLOCK a', `set ${REL}$ isHoAllowed no`], '"no" is not true or false'],
    [
      'a struct without its fields',
      [...HEAD, '# MISSING a', 'crn ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=X', 'eNBId 1', 'eNodeBPlmnId 268-01', 'end'],
      'is not a struct',
    ],
    [
      'an attribute set may not change',
      [...HEAD, '# WRONG a', `set ${REL}$ neighborCellRef ENodeBFunction=1,EUtranCellFDD=A`],
      'is not an attribute set may change',
    ],
    ['an if never closed', [...HEAD, 'if $nodename != LX0001', 'return'], 'if without fi'],
    ['an end without crn', [...HEAD, 'end'], 'end without crn'],
    ['no confbd+', ['gs+', 'lt all', '# CV', 'cvms X'], 'no confbd+'],
  ])('refuses %s', (_what, lines, expected) => {
    expect(messages(lines).join('\n')).toContain(expected);
  });
});
