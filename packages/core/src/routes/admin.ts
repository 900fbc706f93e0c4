import {
  adminAccountBody,
  adminAccountCreateBody,
  adminAccountState,
  adminAccountsReply,
  adminAccountWire,
  adminUserCreateBody,
  adminUserPasswordBody,
  adminUsersReply,
  adminUserUpdateBody,
  adminUserWire,
} from '../contracts/admin.js';
import { idParams, okReply } from '../contracts/common.js';
import { route } from './route.js';

/**
 * Accounts and their users (spec §7 "Admin", PRODUCT.md "Administration"): every route needs
 * `account.admin`, and the server narrows it to the caller's subtree.
 */

const tags = ['admin'];
const need = 'account.admin';

export const adminRoutes = {
  accounts: route({
    method: 'GET',
    path: '/api/admin/accounts',
    reply: adminAccountsReply,
    need,
    summary: 'Subordinate accounts and their activation',
    tags,
  }),
  accountUpdate: route({
    method: 'PUT',
    path: '/api/admin/accounts/:id',
    params: idParams,
    body: adminAccountBody,
    reply: adminAccountState,
    need,
    summary: 'Activate (s=1), suspend (s=0) or rename (n) an account; the account as read is accepted',
    tags,
  }),
  accountCreate: route({
    method: 'POST',
    path: '/api/admin/accounts',
    body: adminAccountCreateBody,
    reply: adminAccountWire,
    need,
    summary: "Create a subordinate account (default parent: the caller's own account)",
    tags,
  }),
  users: route({
    method: 'GET',
    path: '/api/admin/accounts/:id/users',
    params: idParams,
    reply: adminUsersReply,
    need,
    summary: 'Users of an account',
    tags,
  }),
  userCreate: route({
    method: 'POST',
    path: '/api/admin/accounts/:id/users',
    params: idParams,
    body: adminUserCreateBody,
    reply: adminUserWire,
    need,
    summary: 'Create a user of an account; the login is unique across the installation (409)',
    tags,
  }),
  userUpdate: route({
    method: 'PUT',
    path: '/api/admin/users/:id',
    params: idParams,
    body: adminUserUpdateBody,
    reply: adminUserWire,
    need,
    summary: 'Edit a user (login, name, language, admin, active); the user as read is accepted',
    tags,
  }),
  userPassword: route({
    method: 'PUT',
    path: '/api/admin/users/:id/password',
    params: idParams,
    body: adminUserPasswordBody,
    reply: okReply,
    need,
    summary: "Set or reset a user's password; ends that user's sessions and API tokens",
    tags,
  }),
  userRemove: route({
    method: 'DELETE',
    path: '/api/admin/users/:id',
    params: idParams,
    reply: okReply,
    need,
    summary: 'Delete a user with their sessions, tokens and fleet memberships',
    tags,
  }),
};
