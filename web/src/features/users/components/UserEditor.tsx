import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import type { CompanyDto, UserDetailDto } from '@irp/proto';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { SAVED_TEXT_MS } from '@/components/save/SaveFlow';
import { errorMessageOf } from '@/lib/apiError';
import { isAdmin } from '@/lib/session/roles';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import { useSaveUserMutation } from '../api/usersApi';
import {
  addRow,
  deleteRow,
  formOf,
  PASSWORD_PLACEHOLDER,
  saveBodyOf,
  toggleRole,
  type UserForm,
} from '../model/userForm';
import { AuditTrail } from './AuditTrail';
import { CompanyPicker } from './CompanyPicker';
import { PermissionTable } from './PermissionTable';
import { StaffRoles } from './StaffRoles';

type SaveState = 'idle' | 'saving' | 'saved';
const SAVE_LABELS: Record<SaveState, string> = { idle: 'Save', saving: 'Saving...', saved: 'Saved!' };

/**
 * Edit User (spec section 2, Users): the username (editable only when creating), the password (blank
 * leaves it unchanged), the staff roles (an Admin sets them), 'Choose Company' with 'Add Row', the
 * permission table and Save. A refused save is an alert of the server's errorMessage (spec section 8); a
 * new user's save goes to the returned id's page. An Admin also sees the user's history.
 */
export function UserEditor({ id, user }: { id: string; user: UserDetailDto }) {
  const creating = user.id === null;
  const admin = isAdmin(useAppSelector(selectSessionUser));
  const [form, setForm] = useState<UserForm>(() => formOf(user));
  const [state, setState] = useState<SaveState>('idle');
  const [saveUser] = useSaveUserMutation();
  const navigate = useNavigate();
  const savedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(savedTimer.current), []);

  const update = (change: Partial<UserForm>) => setForm((current) => ({ ...current, ...change }));
  const onAdd = (company: CompanyDto | null) => {
    const result = addRow(form.rows, company);
    if ('alert' in result) window.alert(result.alert);
    else update({ rows: result.rows });
  };

  async function save() {
    setState('saving');
    try {
      const saved = await saveUser({ id, body: saveBodyOf(form, { sendStaffRoles: admin }) }).unwrap();
      update({ password: '' });
      if (creating) {
        await navigate(`/users/${saved.id}`);
        return;
      }
      setState('saved');
      clearTimeout(savedTimer.current);
      savedTimer.current = setTimeout(() => setState('idle'), SAVED_TEXT_MS);
    } catch (error) {
      setState('idle');
      window.alert(errorMessageOf(error));
    }
  }

  const tickers = new Map(form.rows.map((row) => [row.stockId, row.combinedTicker]));
  return (
    <Stack gap="lg">
      <Stack gap="sm" maw={420}>
        <TextInput
          label="Username"
          value={form.username}
          onChange={(event) => update({ username: event.currentTarget.value })}
          readOnly={!creating}
          disabled={!creating}
          autoComplete="off"
          required={creating}
        />
        <PasswordInput
          label="Password"
          placeholder={PASSWORD_PLACEHOLDER}
          value={form.password}
          onChange={(event) => update({ password: event.currentTarget.value })}
          autoComplete="new-password"
          description="At least 12 characters, not the username, not a common password"
        />
      </Stack>
      <StaffRoles
        roles={form.staffRoles}
        onChange={(staffRoles) => update({ staffRoles })}
        editable={admin}
      />
      <CompanyPicker onAdd={onAdd} />
      <PermissionTable
        rows={form.rows}
        onToggle={(stockId, role, held) => update({ rows: toggleRole(form.rows, stockId, role, held) })}
        onDelete={(stockId) => update({ rows: deleteRow(form.rows, stockId) })}
      />
      <Button
        onClick={() => void save()}
        disabled={state === 'saving'}
        color={state === 'saved' ? 'green' : undefined}
        w="fit-content"
      >
        {SAVE_LABELS[state]}
      </Button>
      {user.audit && (
        <AuditTrail entries={user.audit} tickerOf={(stockId) => tickers.get(stockId) ?? stockId} />
      )}
    </Stack>
  );
}
