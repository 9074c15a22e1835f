// What rc-form's rule validation gets for its `@rc-component/async-validator` import, at build time
// (tools/webpack, AntdImportsPlugin): the validator loads with a page's first validation, not with
// every page that draws a form (≈ 4 KB gz). rc-form only ever creates one per rule, sets its messages,
// validates (a promise already) and silences `warning`; the same calls reach the real one here.
import type RealValidator from '@rc-component/async-validator';
import type { Rules, ValidateMessages, ValidateOption, Values } from '@rc-component/async-validator';

// webpack loads the chunk once and hands every later import the same module.
const loadValidator = () => import('@rc-component/async-validator').then((module) => module.default);

export default class OnDemandValidator {
  /** rc-form replaces it to silence the validator's console warnings; handed to the real one. */
  static warning: (typeof RealValidator)['warning'] | undefined;

  private readonly descriptor: Rules;
  private chosenMessages: ValidateMessages | undefined;

  constructor(descriptor: Rules) {
    this.descriptor = descriptor;
  }

  messages(messages?: ValidateMessages) {
    this.chosenMessages = messages;
  }

  async validate(source: Values, options?: ValidateOption) {
    const Validator = await loadValidator();
    if (OnDemandValidator.warning) Validator.warning = OnDemandValidator.warning;
    const validator = new Validator(this.descriptor);
    if (this.chosenMessages) validator.messages(this.chosenMessages);
    return validator.validate(source, options ?? {});
  }
}
