/** The launcher's own output: `[dev] …` lines, coloured on a terminal (NO_COLOR turns that off). */
const color = process.stdout.isTTY && !process.env.NO_COLOR;

export const paint = (code: number, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
export const say = (msg: string) => process.stdout.write(`${paint(1, '[dev]')} ${msg}\n`);
