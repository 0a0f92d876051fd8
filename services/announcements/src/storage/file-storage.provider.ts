import { SERVICE_CONFIG } from '@irp/platform';
import { Provider } from '@nestjs/common';
import { resolve } from 'node:path';
import type { AnnouncementsConfig } from '../config';
import { FileStorage, LocalFileStorage } from './file-storage';

/** FileStorage is a local directory (DATA_DIR) unless a deployment provides another implementation. */
export const FileStorageProvider: Provider = {
  provide: FileStorage,
  inject: [SERVICE_CONFIG],
  useFactory: (config: AnnouncementsConfig) => new LocalFileStorage(resolve(config.DATA_DIR)),
};
