/**
 * The payment page's English messages: the reference catalogue. Every other language has exactly
 * these keys (the type below makes a missing or extra key a compile error). `{{name}}` is filled in
 * by i18n.ts; a value given as markup (an amount in <strong>) is inserted as is, text is escaped.
 */
export const en = {
  'title.waiting': 'Pay',
  'title.detected': 'Payment detected',
  'title.paid': 'Payment received',
  'title.expired': 'Invoice expired',
  'title.failed': 'Payment failed',
  'merchant.network': 'Network:',
  'merchant.order': 'Order {{order}}',
  'summary.due': 'Amount due',
  'summary.remaining': 'Remaining to pay',
  'summary.paid': 'Amount paid',
  'summary.amount': 'Amount',
  'summary.partial': 'Invoice total {{total}}, of which {{received}} received',
  'copy.button': 'Copy',
  'copy.amount': 'Copy amount',
  'copy.address': 'Copy address',
  'waiting.heading': 'Waiting for payment',
  'waiting.expiresIn': 'Expires in',
  'waiting.send': 'Send {{amount}} on the {{network}} network to the address below.',
  'waiting.onlyToken':
    'Only {{currency}} on {{network}} counts: another token, or the same token on another network, does not pay this invoice.',
  'waiting.typeAmount': 'Your wallet will not fill in the amount: enter it yourself, exactly {{amount}}.',
  'waiting.onlyMethods':
    'Only what is listed under “{{legend}}” counts: another token, or a listed token sent on a network not listed for it, does not pay this invoice.',
  'pay.heading': 'Payment details',
  'pay.openWallet': 'Open in wallet',
  'pay.address': 'Payment address',
  'pay.qrLabel': 'QR code to pay {{amount}} to {{address}}',
  'pay.qrCaption': 'On another device? Scan this code with your wallet app.',
  'pay.qrCaptionAddress': 'Scan for the address',
  'pay.cancel': 'Cancel and return',
  'methods.legend': 'Pay with',
  'methods.option': '{{currency}} on {{network}}',
  'methods.submit': 'Show payment details',
  'detected.heading': 'Payment detected',
  'detected.text':
    'We have seen your payment and are waiting for the network to confirm it. Do not send it again. This page updates by itself.',
  'detected.wait': 'Waiting for confirmation',
  'paid.heading': 'Payment received',
  'paid.text': 'Thank you! {{merchant}} has been notified.',
  'paid.close': 'You can close this page.',
  'paid.late': 'It arrived after the deadline, within the 24-hour late window, and still counts.',
  'paid.return': 'Return to {{merchant}}',
  'paid.redirecting': 'Taking you back to {{merchant}} in {{seconds}} s.',
  'paid.stay': 'Stay on this page',
  'paid.stayed': 'You are staying on this page.',
  'expired.heading': 'Invoice expired',
  'expired.text':
    'Do not send a new payment to this address. If you still want to pay, ask {{merchant}} for a new payment link.',
  'expired.late':
    'Already sent the full amount? A payment confirmed by {{until}} still pays this invoice, and this page will show it.',
  'expired.closed':
    'The 24-hour window for late payments has ended. If you sent a payment, contact {{merchant}} and give the reference below.',
  'failed.underpaid.heading': 'Payment incomplete',
  'failed.underpaid.text':
    'Less than the full amount arrived in time, so this invoice is not paid. Contact {{merchant}} about a refund of what you sent.',
  'failed.reversed.heading': 'Payment reversed',
  'failed.reversed.text':
    'The payment was reversed on the network before it was confirmed. Contact {{merchant}} before you pay again.',
  'row.network': 'Network',
  'row.reference': 'Reference',
  'row.amountSeen': 'Amount seen',
  'row.transaction': 'Transaction',
  'row.paidOn': 'Paid on',
  'row.expired': 'Expired',
  'row.received': 'Received',
  'row.missing': 'Missing',
  'row.paidWith': 'Paid with',
  'row.reversed': 'Reversed',
  'explorer.link': 'View the transaction on the block explorer',
  'payment.on': '{{amount}} on {{network}}',
  'unaccepted.text':
    'Received but not counted: {{payments}}. This invoice does not accept that token on that network; contact {{merchant}} to get it back.',
  'wallet.heading': 'Pay from your browser wallet',
  'wallet.text':
    'Sign a USDC transfer of exactly {{amount}} on {{network}}. No gas needed: Paydesk sends it for you.',
  'wallet.button': 'Pay from your browser wallet',
  'script.wallet.none': 'No browser wallet found. Install one, or pay from the address above.',
  'script.wallet.rejected': 'You declined the signature in your wallet. Nothing was sent; you can try again.',
  'script.wallet.wrongChain': 'Your wallet is on another network. Switch it to {{network}} and try again.',
  'script.wallet.expired': 'This payment request has expired. Reload the page to get a new one.',
  'script.wallet.balance': 'Your wallet does not hold enough USDC on {{network}} for this payment.',
  'script.wallet.sent': 'Payment sent. Waiting for the network to confirm it…',
  'script.wallet.failed': 'The payment could not be sent: {{reason}}',
  'sandbox.heading': 'Sandbox invoice',
  'sandbox.text': 'No real funds move. Pay it as a test payer would:',
  'sandbox.button': 'Simulate payment',
  noscript: 'JavaScript is off, so this page does not update by itself: reload it to see the latest status.',
  footer: 'Secured by Paydesk',
  'message.notFound.heading': 'Payment page not found',
  'message.notFound.text':
    'This link does not match any invoice. Check that you have the whole link, or ask the merchant for a new one.',
  'message.rateLimited.heading': 'Too many requests',
  'message.rateLimited.text': 'Please wait {{seconds}} seconds, then reload this page.',
  'message.forbidden.heading': 'Not allowed',
  'message.forbidden.text': 'Use the button on the payment page.',
  'message.invalid.heading': 'Request not understood',
  'message.invalid.text': 'Go back to the payment page and try again.',
  'message.error.heading': 'Something went wrong',
  'message.error.text': 'This is a problem on our side, not yours. Please reload the page in a moment.',
  'language.label': 'Language',
  'script.copied': 'Copied to the clipboard',
  'script.copyFallback': 'Press Ctrl+C (⌘C on a Mac) to copy',
  'script.processing': 'Processing…',
  'script.days': '{{days}}d',
  'refund.title': 'Refund',
  'refund.heading': 'Your refund',
  'refund.amount': 'Refund amount',
  'refund.intro':
    'Choose how you want to receive it and enter your address on that network. This link works once.',
  'refund.legend': 'Receive as',
  'refund.address': 'Refund address',
  'refund.addressHint':
    'Your own wallet address on the network you chose, pasted exactly as your wallet shows it.',
  'refund.submit': 'Request refund',
  'refund.errors': 'Please correct this:',
  'refund.error.method': 'Choose how you want to receive the refund.',
  'refund.error.evm': 'Enter an address of 0x followed by 40 characters, exactly as your wallet shows it.',
  'refund.error.checksumMissing':
    'This address is all in one case, so it carries no EIP-55 checksum (the mixed case that catches a mistyped character). Paste it exactly as your wallet shows it. If it is exactly your address, its checksummed form is {{address}}: check it against your wallet.',
  'refund.error.checksum':
    'This address fails its checksum: a character is wrong. Copy it again from your wallet.',
  'refund.error.solana':
    'Enter a Solana wallet address: 32 to 44 letters and digits, exactly as your wallet shows it.',
  'refund.error.solanaOffCurve':
    "This is a token account, not a wallet (it is off the curve): enter your wallet's own address, as your wallet shows it.",
  'refund.error.tron': 'Enter a TRON address: T followed by 33 characters, exactly as your wallet shows it.',
  'refund.ready.heading': 'Refund requested',
  'refund.ready.text':
    '{{merchant}} will send {{amount}} to your address. Reload this page later to see when it has arrived.',
  'refund.sent.heading': 'Refund on its way',
  'refund.sent.text': 'The transfer of {{amount}} is on the network and waiting for confirmation.',
  'refund.confirmed.heading': 'Refund sent',
  'refund.confirmed.text': '{{amount}} has arrived at your address.',
  'refund.used.heading': 'Refund link not valid',
  'refund.used.text':
    'This refund link has been used already, was canceled, or is incomplete. If you are waiting for a refund, contact the merchant.',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Readonly<Record<MessageKey, string>>;
