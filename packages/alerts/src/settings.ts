import { z } from "zod";

/** Per service item alert settings, as stored on service_items and edited in the dashboard. */
export const itemAlertSettingsSchema = z.object({
  recoveryMarginPercent: z.number().finite().min(0).max(100),
  minimumDurationSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400),
});
export type ItemAlertSettings = z.infer<typeof itemAlertSettingsSchema>;
