import { fleetItemParams } from '../contracts/common.js';
import {
  serviceAttachmentDeleteReply,
  serviceAttachmentListReply,
  serviceAttachmentParams,
} from '../contracts/services.js';
import { route } from './route.js';

/** The services API of spec §7 "Services" (PRODUCT.md "Services"). */

const tags = ['services'];
const base = '/api/fleets/:fid/services';

export const servicesRoutes = {
  attachments: route({
    method: 'GET',
    path: `${base}/:id/attachments`,
    params: fleetItemParams,
    reply: serviceAttachmentListReply,
    need: 'service.view',
    summary: 'Attachments of a service',
    tags,
  }),
  attachmentUpload: route({
    method: 'POST',
    path: `${base}/:id/attachments`,
    params: fleetItemParams,
    body: 'multipart',
    reply: serviceAttachmentListReply,
    need: 'service.manage',
    summary: 'Upload files (multipart/form-data): at most 20 files and 32 MB per service',
    tags,
  }),
  attachmentDownload: route({
    method: 'GET',
    path: `${base}/:id/attachments/:aid`,
    params: serviceAttachmentParams,
    reply: 'file',
    need: 'service.view',
    summary: 'Download an attachment with its original name',
    tags,
  }),
  attachmentRemove: route({
    method: 'DELETE',
    path: `${base}/:id/attachments/:aid`,
    params: serviceAttachmentParams,
    reply: serviceAttachmentDeleteReply,
    need: 'service.manage',
    summary: 'Delete an attachment',
    tags,
  }),
};
