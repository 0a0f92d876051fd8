import 'reflect-metadata';
import { announcementsService } from './app.module';

export const startAnnouncementsService = announcementsService.main(module);
