"""Play by e-mail: a transport beside Discord and the terminal, on the same command set.

tokens.py signs the reply addresses (the only proof of who wrote), parse.py reads move lines
out of a mail body, repo.py keeps the mail tables (migration 004), outbound.py sends by SMTP,
inbound.py is the bot's own SMTP listener (aiosmtpd), imap.py polls an IMAP mailbox instead,
compose.py writes the turn mail and
transport.py ties them to the service. docs/MAIL.md says how a group sets it up.
"""
