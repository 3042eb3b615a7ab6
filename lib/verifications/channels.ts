// The channels a request was sent through, in words staff read (the register keeps the three
// switches of the create form). One wording for the detail page and the creation summary.

export type RequestChannels = { shareableLink: boolean; emailNotification: boolean; smsNotification: boolean };

/** "Shareable link, E-mail, SMS"; "No channel" when every switch was off. */
export function channelsLabel(channels: RequestChannels): string {
  const names = [
    channels.shareableLink && 'Shareable link',
    channels.emailNotification && 'E-mail',
    channels.smsNotification && 'SMS',
  ].filter((name): name is string => typeof name === 'string');
  return names.length > 0 ? names.join(', ') : 'No channel';
}
