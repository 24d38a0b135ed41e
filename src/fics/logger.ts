// The logging the FICS code needs: a pino logger fits, and so does anything with these methods.

type LogMethod = (fields: object, message: string) => void;

export interface FicsLogger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

const ignore: LogMethod = () => {};

export const silentLogger: FicsLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
