/**
 * The alert rules and the fired log, read through the typed client. The `alerts` push event
 * carries the whole rule list (written straight into the cache); an `alert` push refetches the
 * log (AlertsProvider). Screens are read for their names only (a new_match rule keeps the id).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, type InputOf } from '../api.ts';
import type { AlertRule } from './describe.ts';

export const RULES_KEY = ['alerts.list', {}] as const;
export const FIRED_KEY = ['alerts.fired'] as const;
const SCREENS_KEY = ['screens.list'] as const;

export function useAlertRules() {
  return useQuery({ queryKey: RULES_KEY, queryFn: () => call('alerts.list', {}) });
}

/** The rules about one market or event (the panel's button shows how many); none without a subject. */
export function useRulesAbout(kind: 'market' | 'event' | undefined, id: string | undefined): AlertRule[] {
  const rules = useAlertRules().data?.rules ?? [];
  return kind && id ? rules.filter((r) => r[kind]?.id === id) : [];
}

export function useFiredAlerts(limit: number) {
  return useQuery({
    queryKey: [...FIRED_KEY, { limit }],
    queryFn: () => call('alerts.fired', { limit }),
    placeholderData: keepPreviousData,
  });
}

export function useScreenNames(): (id: string) => string | undefined {
  const screens = useQuery({ queryKey: SCREENS_KEY, queryFn: () => call('screens.list', {}) });
  return (id) => screens.data?.screens.find((s) => s.id === id)?.name;
}

export function useCreateAlert(onCreated: (rule: AlertRule) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: InputOf<'alerts.create'>) => call('alerts.create', params),
    onSuccess: (rule) => {
      void queryClient.invalidateQueries({ queryKey: RULES_KEY });
      onCreated(rule);
    },
  });
}

export function useRemoveAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('alerts.remove', { id }),
    onSuccess: (list) => queryClient.setQueryData(RULES_KEY, list),
  });
}
