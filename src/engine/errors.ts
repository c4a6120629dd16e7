import { AppError } from '../errors/index.js';

/**
 * A chart or dataset configuration the engine cannot run (unknown operation, bad formula,
 * unknown zone …). A 400 for the caller: the stored configuration must change, not the data.
 */
export class InvalidChartConfigError extends AppError {
  constructor(path: string, message: string) {
    super(400, 'INVALID_CHART_CONFIG', `${path}: ${message}`, [{ path, message }]);
  }
}
